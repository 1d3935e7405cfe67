# syntax=docker/dockerfile:1
# Build: docker build -t tank-rules .
# Run:   docker run --rm -p 8080:8080 tank-rules

FROM rust:1-bookworm AS build
WORKDIR /src
# Dependencies first, so source edits do not rebuild them.
COPY Cargo.toml Cargo.lock ./
COPY benches ./benches
RUN mkdir src && echo 'fn main() {}' > src/main.rs && touch src/lib.rs \
    && cargo build --release --locked \
    && rm -rf src
COPY src ./src
RUN touch src/main.rs src/lib.rs && cargo build --release --locked

FROM debian:bookworm-slim
RUN useradd --system --uid 10001 --no-create-home tank
COPY --from=build /src/target/release/tank-rules /usr/local/bin/tank-rules
USER 10001
ENV TANK_RULES_ADDR=0.0.0.0:8080 \
    TANK_RULES_LOG_FORMAT=json
EXPOSE 8080
ENTRYPOINT ["/usr/local/bin/tank-rules"]
