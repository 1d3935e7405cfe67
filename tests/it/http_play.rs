//! `ai-move` with `"play": true` (docs/API.md): in every game its answer is
//! `ai-move`'s, plus `applied`, exactly what `apply` answers for the move
//! (for a simultaneous game, for the round it makes with the other
//! player's step the request gives). A property over random positions of
//! each game, reached by low-level AI playouts; and the refusals of a
//! `play` asked wrongly.

use actix_web::body::MessageBody;
use actix_web::dev::{Service, ServiceResponse};
use proptest::prelude::*;
use serde_json::{json, Value};
use tank_rules::limits::Limits;

use crate::common::{app_with, assert_problem, get, post};

/// A small search, the same on any machine.
fn small() -> Value {
    json!({"max_depth": 2, "max_nodes": 4000})
}

/// The members of an `ai-move` answer that depend on the run, not the
/// request.
fn without_run(mut answer: Value) -> Value {
    if let Some(fields) = answer.as_object_mut() {
        for field in ["time_ms", "cached"] {
            fields.remove(field);
        }
    }
    answer
}

/// What one game's requests look like, for the property.
#[derive(Clone, Copy, Debug)]
enum Game {
    TankBattle,
    TankWar,
    CobiTankWars,
}

impl Game {
    fn id(self) -> &'static str {
        match self {
            Game::TankBattle => "tank-battle",
            Game::TankWar => "tank-war",
            Game::CobiTankWars => "cobi-tank-wars",
        }
    }

    /// The players, the one to move first.
    fn players(self) -> [&'static str; 2] {
        match self {
            Game::TankBattle => ["white", "black"],
            Game::TankWar => ["U", "D"],
            Game::CobiTankWars => ["P1", "P2"],
        }
    }

    /// The `ai-move` body for `player` in `state`.
    fn ask(self, state: &Value, player: &str, seed: u64) -> Value {
        match self {
            Game::TankBattle => json!({"position": state, "limits": small(), "seed": seed}),
            Game::TankWar | Game::CobiTankWars => {
                json!({"state": state, "player": player, "limits": small(), "seed": seed})
            }
        }
    }

    /// The `apply` body for the AI's `answer` as `player`, the other
    /// player's answer `theirs` (simultaneous games), and the round's
    /// `seed`.
    fn apply(
        self,
        state: &Value,
        player: &str,
        answer: &Value,
        theirs: &Value,
        seed: u64,
    ) -> Value {
        match self {
            Game::TankBattle => json!({"position": state, "move": answer["move"]}),
            Game::TankWar => {
                let mut moves = serde_json::Map::new();
                moves.insert(player.to_owned(), answer["move"].clone());
                moves.insert(self.other(player).to_owned(), theirs["move"].clone());
                json!({"state": state, "moves": moves})
            }
            Game::CobiTankWars => {
                let mut orders = serde_json::Map::new();
                orders.insert(player.to_owned(), answer["orders"].clone());
                orders.insert(self.other(player).to_owned(), theirs["orders"].clone());
                let gunfire: Vec<Value> = [answer, theirs]
                    .iter()
                    .flat_map(|a| a["gunfire"].as_array().cloned().unwrap_or_default())
                    .map(|target| target["square"].clone())
                    .collect();
                json!({"state": state, "orders": orders, "gunfire": gunfire, "seed": seed})
            }
        }
    }

    /// What `play` adds to the `ai-move` body: the other player's step.
    fn play(self, ask: &mut Value, player: &str, theirs: &Value) {
        let other = self.other(player);
        ask["play"] = json!(true);
        match self {
            Game::TankBattle => {}
            Game::TankWar => ask["moves"] = json!({ other: theirs["move"] }),
            Game::CobiTankWars => {
                ask["orders"] = theirs["orders"].clone();
                let squares: Vec<Value> = theirs["gunfire"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default()
                    .into_iter()
                    .map(|target| target["square"].clone())
                    .collect();
                ask["gunfire"] = Value::Array(squares);
            }
        }
    }

    fn other(self, player: &str) -> &'static str {
        let [first, second] = self.players();
        if player == first {
            second
        } else {
            first
        }
    }

    /// The state in an `apply` answer.
    fn state_of(self, applied: &Value) -> Value {
        match self {
            Game::TankBattle => applied["position"].clone(),
            Game::TankWar | Game::CobiTankWars => applied["state"].clone(),
        }
    }

    /// The player the AI decides for in `state`: Tank Battle's side to
    /// move, else the one `ply` names.
    fn mover(self, state: &Value, ply: usize) -> &'static str {
        match self {
            Game::TankBattle => {
                let side = state.as_str().and_then(|tbn| tbn.split(' ').nth(1));
                if side == Some("b") {
                    "black"
                } else {
                    "white"
                }
            }
            Game::TankWar | Game::CobiTankWars => self.players()[ply % 2],
        }
    }
}

/// The property for `game`: `plies` steps of AI playout from the start,
/// then `ai-move` with `play` against `ai-move` and `apply`, asked in
/// either order (so that the played answer is both searched and read from
/// the cache).
async fn play_equals_ai_move_then_apply<S, B>(app: &S, game: Game, seed: u64, plies: usize)
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    let base = format!("/v1/{}", game.id());
    let start = get(app, &format!("{base}/initial")).await;
    let mut state = match game {
        Game::TankBattle => start.body["position"].clone(),
        Game::TankWar | Game::CobiTankWars => start.body.clone(),
    };
    let mut ply = 0;
    loop {
        let player = game.mover(&state, ply);
        let step_seed = seed.wrapping_add(ply as u64);
        let answer = post(
            app,
            &format!("{base}/ai-move"),
            game.ask(&state, player, step_seed),
        )
        .await;
        if answer.status == 422 {
            return; // The game ended in the playout.
        }
        assert_eq!(answer.status, 200, "{answer:?}");
        let other = game.other(player);
        let theirs = post(
            app,
            &format!("{base}/ai-move"),
            game.ask(&state, other, !step_seed),
        )
        .await;
        let theirs = theirs.body;
        if ply < plies {
            let body = game.apply(&state, player, &answer.body, &theirs, step_seed);
            let applied = post(app, &format!("{base}/apply"), body).await;
            assert_eq!(applied.status, 200, "{applied:?}");
            state = game.state_of(&applied.body);
            ply += 1;
            continue;
        }
        // The position to test, with a seed not asked yet: `play` asked
        // first (searched) or second (read from the cache).
        let test_seed = step_seed ^ 0x5EED;
        let plain = game.ask(&state, player, test_seed);
        let mut ask = plain.clone();
        game.play(&mut ask, player, &theirs);
        let (played, answer) = if seed % 2 == 1 {
            let played = post(app, &format!("{base}/ai-move"), ask).await;
            (played, post(app, &format!("{base}/ai-move"), plain).await)
        } else {
            let answer = post(app, &format!("{base}/ai-move"), plain).await;
            (post(app, &format!("{base}/ai-move"), ask).await, answer)
        };
        assert_eq!(played.status, 200, "{played:?}");
        assert_eq!(answer.status, 200, "{answer:?}");
        let body = game.apply(&state, player, &answer.body, &theirs, test_seed);
        let applied = post(app, &format!("{base}/apply"), body).await;
        assert_eq!(applied.status, 200, "{applied:?}");
        let mut played = played.body;
        let Some(got) = played.as_object_mut().and_then(|p| p.remove("applied")) else {
            panic!("no `applied` in {played}");
        };
        assert_eq!(got, applied.body, "{} at ply {ply}", game.id());
        assert_eq!(without_run(played), without_run(answer.body.clone()));
        return;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(8))]

    #[test]
    fn ai_move_with_play_is_ai_move_then_apply(seed in any::<u64>(), plies in 0usize..12) {
        actix_web::rt::System::new().block_on(async move {
            let app = app_with(Limits::default()).await;
            for game in [Game::TankBattle, Game::TankWar, Game::CobiTankWars] {
                play_equals_ai_move_then_apply(&app, game, seed, plies).await;
            }
        });
    }
}

#[actix_web::test]
async fn a_play_asked_wrongly_is_refused() {
    let app = app_with(Limits::default()).await;
    let war = get(&app, "/v1/tank-war/initial").await.body;
    let ask = |extra: Value| {
        let mut body = json!({"state": war, "player": "U", "limits": small()});
        if let (Some(body), Some(extra)) = (body.as_object_mut(), extra.as_object()) {
            body.extend(extra.clone());
        }
        body
    };
    for (extra, field) in [
        // The other player's pick is needed, and only it.
        (json!({"play": true}), "moves.D"),
        (json!({"play": true, "moves": {"U": "LA"}}), "moves.D"),
        (
            json!({"play": true, "moves": {"U": "LA", "D": "RC"}}),
            "moves.D",
        ),
        // Without `play`, no step of the other player.
        (json!({"moves": {"D": "RC"}}), "moves"),
        (json!({"elapsed_ms": {"U": 1}}), "elapsed_ms"),
    ] {
        let reply = post(&app, "/v1/tank-war/ai-move", ask(extra.clone())).await;
        assert_problem(&reply, 400, "BAD_REQUEST");
        assert_eq!(reply.body["field"], field, "{extra}: {reply:?}");
    }
    // An illegal pick of the other player is `apply`'s 422.
    let reply = post(
        &app,
        "/v1/tank-war/ai-move",
        ask(json!({"play": true, "moves": {"D": "NOPE"}})),
    )
    .await;
    assert_problem(&reply, 422, "NO_SUCH_TANK");

    let wars = get(&app, "/v1/cobi-tank-wars/initial").await.body;
    let reply = post(
        &app,
        "/v1/cobi-tank-wars/ai-move",
        json!({"state": wars, "player": "P1", "play": true, "limits": small()}),
    )
    .await;
    assert_problem(&reply, 400, "BAD_REQUEST");
    assert_eq!(reply.body["field"], "orders");

    // Tank Battle: the move played ends the game under a ply limit, and
    // `applied` says so.
    let reply = post(
        &app,
        "/v1/tank-battle/ai-move",
        json!({
            "position": "ctttt6/tttt7/ttt8/t10/11/11/11/9TT/8TTT/7TTTT/6TTTTC w 5",
            "rules": {"max_plies": 6},
            "limits": small(),
            "play": true
        }),
    )
    .await;
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(reply.body["applied"]["finished"], true, "{reply:?}");
    assert_eq!(reply.body["applied"]["reason"], "ply_limit");
    assert_eq!(reply.body["applied"]["move"], reply.body["move"]);
    assert_eq!(reply.body["applied"]["turn"], "black");
}

/// The fields every game's `apply`, `score` and `replay`'s `final` share
/// (docs/API.md): how a finished game is told, in one shape.
fn standing(answer: &Value) -> Value {
    json!({
        "finished": answer["finished"],
        "winner": answer["winner"],
        "draw": answer["draw"],
        "reason": answer["reason"],
        "score": answer["score"],
    })
}

/// A site hosting a game to its end with one call a turn: each turn the
/// AI's move played (`play`), the other player's step in the simultaneous
/// games the AI's for that player; the game kept as a record (the
/// replay's body with `game` and `result`), which `replay` and `annotate`
/// take as it is and whose replay ends as the last answer said.
#[actix_web::test]
async fn a_game_is_hosted_to_its_end_and_kept_as_a_record() {
    let app = app_with(Limits::default()).await;
    for game in [Game::TankBattle, Game::TankWar, Game::CobiTankWars] {
        let base = format!("/v1/{}", game.id());
        let start = get(&app, &format!("{base}/initial")).await.body;
        let mut state = match game {
            Game::TankBattle => start["position"].clone(),
            Game::TankWar | Game::CobiTankWars => start.clone(),
        };
        let mut steps: Vec<Value> = Vec::new();
        let mut last = Value::Null;
        // Tank Battle ends by its end policy at the latest; Tank Wars has
        // none, and is stopped after 30 rounds.
        let rules = json!({"max_plies": 40, "repetition": 3});
        for ply in 0..60usize {
            let player = game.mover(&state, ply);
            let seed = ply as u64;
            let mut ask = game.ask(&state, player, seed);
            if let Game::TankBattle = game {
                ask["rules"] = rules.clone();
            }
            let theirs = match game {
                Game::TankBattle => Value::Null,
                _ => {
                    let other = game.other(player);
                    post(
                        &app,
                        &format!("{base}/ai-move"),
                        game.ask(&state, other, !seed),
                    )
                    .await
                    .body
                }
            };
            game.play(&mut ask, player, &theirs);
            let played = post(&app, &format!("{base}/ai-move"), ask).await;
            assert_eq!(played.status, 200, "{} ply {ply}: {played:?}", game.id());
            let applied = &played.body["applied"];
            // The record's step, from the answer (and the other player's
            // step the site gave).
            steps.push(match game {
                Game::TankBattle => applied["move"].clone(),
                Game::TankWar => {
                    let mut round = json!({ player: played.body["move"] });
                    round[game.other(player)] = theirs["move"].clone();
                    round
                }
                Game::CobiTankWars => {
                    let body = game.apply(&state, player, &played.body, &theirs, seed);
                    json!({"orders": body["orders"], "gunfire": body["gunfire"], "seed": seed})
                }
            });
            state = game.state_of(applied);
            last = standing(applied);
            if applied["finished"] == true || (matches!(game, Game::CobiTankWars) && ply == 29) {
                break;
            }
        }
        assert!(
            last["finished"] == true || matches!(game, Game::CobiTankWars),
            "{} did not end: {last}",
            game.id()
        );
        let mut record = json!({"game": game.id(), "result": last});
        match game {
            Game::TankBattle => {
                record["layout"] = json!("standard");
                record["rules"] = rules.clone();
                record["moves"] = Value::Array(steps);
            }
            _ => record["rounds"] = Value::Array(steps),
        }
        let replayed = post(&app, &format!("{base}/replay"), record.clone()).await;
        assert_eq!(replayed.status, 200, "{}: {replayed:?}", game.id());
        assert_eq!(standing(&replayed.body["final"]), last, "{}", game.id());
        let scored = match game {
            Game::TankBattle => json!({"position": state, "rules": rules}),
            _ => json!({"state": state}),
        };
        let scored = post(&app, &format!("{base}/score"), scored).await;
        assert_eq!(standing(&scored.body), last, "{}", game.id());

        let mut review = record.clone();
        review["limits"] = json!({"max_nodes": 10_000});
        if let Game::CobiTankWars = game {
            review["limits"] = json!({"max_nodes": 2_000});
        }
        let reviewed = post(&app, &format!("{base}/annotate"), review).await;
        assert_eq!(reviewed.status, 200, "{}: {reviewed:?}", game.id());
        assert_eq!(standing(&reviewed.body["final"]), last, "{}", game.id());

        // A record of another game is refused, whole.
        record["game"] = json!("chess");
        let refused = post(&app, &format!("{base}/replay"), record).await;
        assert_problem(&refused, 400, "BAD_REQUEST");
        assert_eq!(refused.body["field"], "game");
    }
}

/// A record's `result` is an object (or null), not read: anything else is
/// refused as the document says.
#[actix_web::test]
async fn a_records_result_is_an_object() {
    let app = app_with(Limits::default()).await;
    for (result, status) in [
        (
            json!({"finished": false, "anything": [1, {"a": null}]}),
            200,
        ),
        (Value::Null, 200),
        (json!("won"), 400),
        (json!([1, 2]), 400),
        (json!(7), 400),
    ] {
        let body = json!({"game": "tank-battle", "moves": ["k4-k5"], "result": result});
        let reply = post(&app, "/v1/tank-battle/replay", body).await;
        assert_eq!(reply.status, status, "{result}: {reply:?}");
    }
}
