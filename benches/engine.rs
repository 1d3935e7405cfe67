//! Engine benchmarks: `cargo bench --bench engine`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use tank_rules::games::tank_battle::{
    self as tb, ai, perft::perft, Layout, MoveText, Position, Setup,
};
use tank_rules::games::tank_war as tw;

/// Reached from the start by the AI (depth 2) playing both sides for 24 plies.
const MIDDLEGAME: &str = "cttt7/2t8/2t8/11/8T2/11/2t8/10T/10T/8T1T/t8TC w 24";

fn positions() -> [(&'static str, Position); 2] {
    let layout = Layout::STANDARD;
    let middle = tb::parse_position(MIDDLEGAME, &layout).expect("a legal position");
    [
        ("start", Position::initial(&layout)),
        ("middlegame", middle),
    ]
}

fn tank_battle(c: &mut Criterion) {
    let layout = Layout::STANDARD;
    let mut group = c.benchmark_group("tank_battle/perft");
    for (name, pos, depth) in [
        ("start", positions()[0].1, 4),
        ("middlegame", positions()[1].1, 3),
    ] {
        let leaves = perft(&pos, &layout, depth);
        group.throughput(Throughput::Elements(leaves));
        group.bench_with_input(BenchmarkId::new(name, depth), &pos, |b, pos| {
            b.iter(|| perft(black_box(pos), &layout, depth))
        });
    }
    group.finish();

    let mut group = c.benchmark_group("tank_battle/movegen");
    for (name, pos) in positions() {
        group.bench_function(BenchmarkId::new("legal_moves", name), |b| {
            b.iter(|| black_box(&pos).legal_moves(&layout))
        });
        group.bench_function(BenchmarkId::new("count_legal_moves", name), |b| {
            b.iter(|| black_box(&pos).count_legal_moves(&layout))
        });
    }
    group.finish();

    let mut group = c.benchmark_group("tank_battle/notation");
    group.bench_function("parse_tbn", |b| {
        b.iter(|| black_box(MIDDLEGAME).parse::<Setup>())
    });
    let middle = positions()[1].1;
    group.bench_function("write_tbn", |b| b.iter(|| black_box(&middle).to_string()));
    group.bench_function("parse_layout", |b| {
        b.iter(|| Layout::parse(black_box(tb::STANDARD_TEXT)))
    });
    group.finish();

    let mut group = c.benchmark_group("tank_battle/apply");
    let start = Position::initial(&layout);
    let mv: MoveText = "k4-k9".parse().expect("a move");
    group.bench_function("validate_and_play", |b| {
        b.iter(|| black_box(&start).play(&layout, black_box(mv)))
    });
    group.bench_function("score_and_outcome", |b| {
        b.iter(|| (black_box(&middle).score(&layout), middle.outcome(&layout)))
    });
    group.finish();

    let mut group = c.benchmark_group("tank_battle/ai");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(5));
    let limits = ai::SearchLimits {
        max_time: None,
        max_depth: 4,
        max_nodes: u64::MAX,
        stop: None,
    };
    for (name, pos) in positions() {
        let state = tank_rules::games::tank_battle::State::new(layout, pos);
        group.bench_function(BenchmarkId::new("depth_4", name), |b| {
            b.iter(|| ai::search(black_box(&state), limits, 0))
        });
    }
    group.finish();
}

fn tank_war(c: &mut Criterion) {
    let (setup, start) = tw::default_state();
    let pick = |pos: &tw::Position, player, name| {
        tw::check_pick(&setup, pos, player, name).expect("a legal pick")
    };
    let picks = [
        pick(&start, tw::Player::U, "LA"),
        pick(&start, tw::Player::D, "RC"),
    ];
    let mut group = c.benchmark_group("tank_war");
    group.bench_function("play_round", |b| {
        b.iter(|| {
            let mut pos = start.clone();
            tw::play_round(&setup, &mut pos, black_box(picks), [0, 0])
        })
    });
    group.bench_function("pickable_both", |b| {
        b.iter(|| {
            (
                tw::pickable(&setup, black_box(&start), tw::Player::U),
                tw::pickable(&setup, &start, tw::Player::D),
            )
        })
    });
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(5));
    let limits = tw::ai::SearchLimits {
        max_time: None,
        max_depth: 2,
        max_nodes: u64::MAX,
        stop: None,
    };
    group.bench_function("ai_depth_2", |b| {
        b.iter(|| tw::ai::search(&setup, black_box(&start), tw::Player::U, limits, 0))
    });
    group.finish();
}

/// The API key check of a request (issue 38): the key read from its
/// header, hashed (BLAKE3) and looked up among 100 digests; alone, and
/// while some other address is shut out for wrong keys (then the
/// request's address is resolved and looked up too).
fn key_check(c: &mut Criterion) {
    use tank_rules::fair_use::{presented_key, FairUse, FairUseConfig, KeyEntry, KeysFile};
    let entries = (0..100)
        .map(|i| KeyEntry::with_key(&format!("site-{i}"), &format!("k-{i:04}-0123456789abcdef")))
        .collect();
    let fair_use = FairUse::new(FairUseConfig {
        keys: KeysFile::from_entries(entries).ok(),
        trusted_proxies: vec!["10.0.0.0/8".parse().expect("a network")],
        ..FairUseConfig::default()
    });
    let peer = Some(std::net::IpAddr::from([10, 0, 0, 5]));
    let forwarded: [&[u8]; 2] = [b"9.9.9.9", b"5.5.5.5"];
    let authorization: &[u8] = b"Bearer k-0042-0123456789abcdef";
    let check = |fair_use: &FairUse| {
        let key = presented_key(None, Some(black_box(authorization)));
        fair_use.identify(peer, forwarded.iter().copied(), key)
    };
    assert!(check(&fair_use).is_ok());
    let mut group = c.benchmark_group("fair_use/key");
    group.bench_function("right_key", |b| b.iter(|| check(&fair_use)));
    // Shut another address out.
    let attacker = Some(std::net::IpAddr::from([6, 6, 6, 6]));
    for i in 0..31 {
        let _ = fair_use.identify(attacker, std::iter::empty(), Some(&format!("guess-{i}")));
    }
    assert!(fair_use
        .identify(
            attacker,
            std::iter::empty(),
            Some("k-0042-0123456789abcdef")
        )
        .is_err());
    group.bench_function("right_key_while_one_address_is_shut_out", |b| {
        b.iter(|| check(&fair_use))
    });
    group.finish();
}

criterion_group!(benches, tank_battle, tank_war, key_check);
criterion_main!(benches);
