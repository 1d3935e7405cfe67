# Build: docker build -t tank-rules .
# Run:   docker run --rm -p 8080:8080 tank-rules
# Compose and Kubernetes: see deploy/README.md.

FROM rust:1-bookworm AS build
WORKDIR /src
# Dependencies first, so source edits do not rebuild them. The workspace's
# manifests (the service's and the engines') name [[bench]] engine and the
# engines' [[bin]]s (the tools under engines/src/bin/) without paths, so
# their files come along for cargo to parse (tests/it/container.rs checks
# it); examples/ are discovered, so their absence is harmless. Only the
# service binary is built (not the tools).
COPY Cargo.toml Cargo.lock ./
COPY engines/Cargo.toml ./engines/
COPY benches ./benches
COPY engines/src/bin ./engines/src/bin
RUN mkdir -p src && echo 'fn main() {}' > src/main.rs && touch src/lib.rs engines/src/lib.rs \
    && cargo build --release --locked --bin tank-rules \
    && rm -rf src engines/src/lib.rs
# Everything the build reads: the sources, and the data they include at
# compile time (tests/it/container.rs checks that every `include_bytes!`
# and `include_str!` path is copied here).
COPY src ./src
COPY engines/src ./engines/src
COPY data ./data
COPY openapi/answers.json ./openapi/
COPY board ./board
# COPY keeps the context's mtimes, which can be older than the dummy build's
# artifacts: touch so cargo rebuilds the crates themselves.
RUN touch src/main.rs src/lib.rs engines/src/lib.rs \
    && cargo build --release --locked --bin tank-rules

FROM debian:bookworm-slim
# A fixed uid *and* gid (10001), matching Kubernetes' runAsUser/runAsGroup
# and compose's user: "10001:10001" (useradd --system alone picks a gid < 1000).
RUN groupadd --system --gid 10001 tank \
    && useradd --system --uid 10001 --gid 10001 --no-create-home --shell /usr/sbin/nologin tank
COPY --from=build /src/target/release/tank-rules /usr/local/bin/tank-rules
USER 10001:10001
ENV TANK_RULES_ADDR=0.0.0.0:8080 \
    TANK_RULES_LOG_FORMAT=json
EXPOSE 8080 9090
# The binary is PID 1 and handles SIGTERM itself (graceful shutdown).
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/tank-rules"]
