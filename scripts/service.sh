# Sourced by the scripts that start the service: builds the binaries they
# run and sets `bin_dir` to the directory holding them.
#
#   . scripts/service.sh tank-rules [tank_war_exact_check]
#
# By default the release build (`cargo build --release`), the binary users
# run. With TANK_RULES_PROFILE=test, the binaries `cargo test` builds
# (target/debug: the service's code at opt-level 1 with debug assertions
# and overflow checks, the dependencies unoptimised but for those every
# request goes through: Cargo.toml's test profile): CI runs its scripts
# against those, having just built them, rather than spending a second
# build of the whole tree on the release profile (BENCHMARKS, "The
# project: tests and CI"); a check that holds there holds at least as
# well in the faster release build, which the benchmarks measure.
# `cargo build --profile test` would build them again (the dev-dependencies
# unify other features), so the test profile's binaries come from
# `cargo test --no-run`.
case "${TANK_RULES_PROFILE:-release}" in
  release)
    cargo build --release --quiet "${@/#/--bin=}"
    bin_dir=target/release
    ;;
  test)
    cargo test --no-run --quiet
    bin_dir=target/debug
    ;;
  *)
    echo "TANK_RULES_PROFILE is release or test, not '$TANK_RULES_PROFILE'" >&2
    exit 2
    ;;
esac
for name in "$@"; do
  [ -x "$bin_dir/$name" ] || { echo "FAIL: $bin_dir/$name was not built" >&2; exit 1; }
done
