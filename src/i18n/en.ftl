# English: the language of the service's texts when no other is asked
# for, and the source the other catalogues translate. One message per
# problem code (`title-`, `detail-`) and per rule reason (`reason-`);
# every catalogue holds the same messages with the same variables
# (`src/i18n/mod.rs` tests it). A `$field` or `$path` of `none` means
# the problem names none.

## Wrappers: a refused move's detail, as the games write it.

refused-at-square = { $reason } ({ $square })
refused-by-player = { $player }: { $reason }
refused-vehicle = { $player }, vehicle "{ $vehicle }": { $reason }

## Tank Battle's rules.

reason-NO_TANK_AT_FROM = there is no tank on the from square
reason-NOT_YOUR_TANK = the tank on the from square belongs to the opponent
reason-NOT_A_LINE = a tank moves along one rank, file or diagonal
reason-MINE = a tank may not enter or pass a mine
reason-CONTAMINATED = only a commander may enter or pass a contaminated square
reason-LOCKED_IN_ENEMY_BASE = a tank in the opponent's base may not leave it
reason-PATH_BLOCKED = a tank may not pass over another tank
reason-OWN_TANK_AT_TO = a tank may not move onto its own side's tank
reason-CAPTURE_IN_CONTAMINATED = no capture on a contaminated square

## Every game.

reason-GAME_OVER = the game is over

## The Tank War's rules.

reason-NO_SUCH_TANK = the player has no living tank of that name
reason-END_OF_TRACK = the tank is at the end of its track
reason-SQUARE_OCCUPIED = the next square of the tank's track is occupied

## Tank Wars' rules.

reason-NO_SUCH_VEHICLE = the player has no vehicle with that id
reason-MISSING_ORDER = every vehicle of each player needs exactly one order
reason-BAD_DIRECTION = a direction is N, E, S or W
reason-BAD_DISTANCE = a distance is 1, 2 or 3

## Problems: each code's title (a rule's is its reason).

title-BAD_REQUEST = Request is not of the shape the operation takes
title-INVALID_POSITION = Position breaks an invariant of the layout
title-LIMIT_EXCEEDED = Request exceeds a server limit
title-UNAUTHORIZED = API key missing or unknown
title-FORBIDDEN = Forbidden
title-NOT_FOUND = Not found
title-METHOD_NOT_ALLOWED = Method not allowed
title-NOT_ACCEPTABLE = Not acceptable
title-REQUEST_TIMEOUT = Request timeout
title-LENGTH_REQUIRED = Length required
title-PAYLOAD_TOO_LARGE = Payload too large
title-UNSUPPORTED_MEDIA_TYPE = Unsupported media type
title-EXPECTATION_FAILED = Expectation failed
title-TOO_MANY_REQUESTS = Too many requests
title-SERVICE_BUSY = Service busy
title-INTERNAL = Internal server error
title-BAD_POSITION = Position notation is malformed
title-BAD_LAYOUT = Layout is malformed
title-BAD_MOVE_NOTATION = Move notation is malformed
title-GAME_OVER = The game is over
title-NO_TANK_AT_FROM = { reason-NO_TANK_AT_FROM }
title-NOT_YOUR_TANK = { reason-NOT_YOUR_TANK }
title-NOT_A_LINE = { reason-NOT_A_LINE }
title-MINE = { reason-MINE }
title-CONTAMINATED = { reason-CONTAMINATED }
title-LOCKED_IN_ENEMY_BASE = { reason-LOCKED_IN_ENEMY_BASE }
title-PATH_BLOCKED = { reason-PATH_BLOCKED }
title-OWN_TANK_AT_TO = { reason-OWN_TANK_AT_TO }
title-CAPTURE_IN_CONTAMINATED = { reason-CAPTURE_IN_CONTAMINATED }
title-NO_SUCH_TANK = Illegal pick
title-END_OF_TRACK = Illegal pick
title-SQUARE_OCCUPIED = Illegal pick
title-NO_SUCH_VEHICLE = Illegal orders
title-MISSING_ORDER = Illegal orders
title-BAD_DIRECTION = Illegal orders
title-BAD_DISTANCE = Illegal orders

## The review's chart.

chart-title = { $game } — { $player }'s chance to win
chart-axis = moves played — { $player }'s chance to win
chart-mark = move { $move }: { $player } played { $played } ({ $label }, −{ $loss })
label-best = best
label-excellent = excellent
label-good = good
label-inaccuracy = inaccuracy
label-mistake = mistake
label-blunder = blunder

## A limit's refusal: what was asked and the limit (LIMIT_EXCEEDED).

limit-tanks = { $count } tanks are more than this server accepts ({ $max })
limit-track = the track of { $tank } has { $count } squares, more than this server accepts ({ $max })
limit-batch-requests = { $count } requests are more than this server runs in one batch ({ $max })
limit-batch-searches = { $count } searches ({ $names }) are more than this server runs in one batch ({ $max })
limit-review-steps = { $count } { $field } are more than this server reviews at once ({ $max })
limit-replay-steps = { $count } { $field } are more than this server replays at once ({ $max })
limit-replay-work = replaying { $steps } steps of a state of { $cells } cells is { $work } units of work, more than this server does for one replay ({ $max })
limit-answer = the answer { $foreseen ->
    [yes] would be
   *[no] is
} about { $bytes } bytes, more than this server writes ({ $max }); ask for less
limit-answer-passed = the answer passed { $max } bytes, the most this server writes, at `{ $field }`; ask for less
limit-perft-depth = depth { $depth } is over this server's perft cap of { $max }
limit-perft-nodes = perft would generate moves for more than { $max } positions; ask for a smaller depth
limit-perft-stopped = the batch has spent its search time budget (the server's AI time cap)
limit-budget-spent = the batch has spent its search time budget ({ $cap } ms, the server's AI time cap, shared by all its searches)
limit-budget-share = the review took longer than its share ({ $share } ms) of the batch's search time budget ({ $cap } ms, the server's AI time cap, shared by all its searches by their prices); review it alone
limit-budget-too-little = the review needs at least { $needed } ms of the batch's search time budget ({ $cap } ms, the server's AI time cap, shared by all its searches) and its share is { $share } ms; review it alone, or fewer steps in the batch


## A problem's detail where it is not a rule's, a notation's, a limit's
## or a JSON fault's: what went wrong in this request, with its facts.
## ($said is what a layer outside the routes answered, in its words;
## $error is a library's own words, which another language says by the
## facts beside it.)

detail-body-timeout = the request body did not arrive within { $secs } s
detail-after-close = an earlier request on this connection asked to close it (`Connection: close`); requests pipelined after it are not processed
detail-key-missing = this service needs an API key: send it in `X-Api-Key` (or `Authorization: Bearer`)
detail-key-unknown = the API key is not known to this service
detail-quota = over the quota of { $quota } { $policy } a minute (this request costs { $price }); retry in { $retry } s
detail-unaffordable = this request costs { $price } { $policy }, more than the whole quota of { $quota } { $policy } a minute; it can never pass under this policy
detail-busy = the server is busy with other searches; retry in { $retry } s
detail-no-room = the server holds as many request bodies and answers as its memory allows; retry in { $retry } s
detail-review-unfinished = the review took longer than this server's cap ({ $cap } ms); the verdicts found so far are kept, so a retry in { $retry } s goes on from them
detail-body-too-large = the body is larger than the limit of { $max } bytes
detail-expectation = `Expect: { $expect }` cannot be met: this server meets only `100-continue`
detail-media-type = the body must be JSON, sent with `Content-Type: application/json`
detail-encoding = the body must be sent as is: `Content-Encoding` { $encoding } is not accepted
detail-not-found = no such resource: { $path }
detail-method = { $method } is not allowed here; allowed: { $allow }
detail-internal = internal error: { $error }
detail-other-layer = { $said }

## A request of the wrong shape that serde does not see.

request-in-batch = requests[{ $index }]: { $detail }
request-no-picks = `moves` must name a pick for U, D or both
request-batch-item = each request must be an object with `op`
request-batch-op = `op` must be one of { $ops }
request-tank-name = a tank's name is 1 to { $max } characters
request-compare-request = a claim's `request` must be an object: the body of its operation's request
request-compare-op = a claim's `request` is the body of the operation its claim's `op` names: it holds no `op` of its own
compare-listed-legal = the service finds this move legal, but its list writes it otherwise
request-level = level must be 1 to 8, not { $value }
request-multipv = multipv must be 1 to { $max }, not { $value }
request-gunfire-tokens = gunfire_tokens must be 0 to { $max }, not { $value }
request-too-many-arrows = { $count } moves in `{ $param }` are more than a picture draws ({ $max })
request-query-too-long = query parameter `{ $param }` is { $count } characters long, more than the { $max } this server reads
request-query-unknown = unknown query parameter `{ $param }`; { $known ->
    [none] this operation takes none
   *[other] this operation takes { $known }
}
# The words actix's `web::Query` gave every fault before the service read
# query strings itself; kept, so that answers stay as they were.
request-query-string = query string: Query deserialize error: { $error }
request-path = path: { $error }
request-body-read = reading the body failed: { $error }
request-judge-nodes = the judge needs at least { $min } positions a search to mean anything, not { $value }
request-max-puzzles = max_puzzles must be from 1 to { $max }, not { $value }
request-rules-max-plies = a ply limit is 1 to { $max }, not { $value }
request-rules-repetition = a repetition rule lets a position stand 2 to { $max } times, not { $value }
request-play-only = `{ $field }` is given only with `"play": true`
request-play-other = `"play": true` needs the other player's step in `{ $field }` (and not { $player }'s: the AI decides it)
request-record-game = this is a record of { $found }, not of `{ $game }`
request-judge-time = the judge needs at least { $min } ms a position to mean anything, not { $value }
request-schema = the `{ $op }` request breaks its schema: { $error }

## Pictures (render.svg): each picture's title and caption, and the
## tooltips and labels of what stands on its board.

svg-tank-battle-title = Tank Battle: { $line }
svg-tank-battle-line = { $side ->
    [white] White
   *[black] Black
} to move · ply { $ply }
svg-tank-battle-last-move = { $line } · last move { $move }
svg-tank-battle-piece = { $side } { $role ->
    [commander] commander
   *[tank] tank
} on { $square }
svg-tank-war-title = The Tank War: { $line }
svg-tank-war-line = Round { $round } · U { $u } · D { $d }
svg-tank-war-tank = { $owner }'s { $name } (type { $type }) on { $square }, { $left } { $left ->
    [one] square
   *[other] squares
} of track ahead
svg-tank-wars-title = Tank Wars: { $line }
svg-tank-wars-line = Round { $round } · { $first } first · support cards P1 { $p1 } · P2 { $p2 }
svg-tank-wars-vehicle = { $owner } vehicle { $id } on { $square }: armor { $armor }, card slot { $slot }
svg-tank-wars-armor = armor { $armor }
svg-tank-wars-token = { $kind ->
    [artillery] artillery
    [support] support
    [gunfire] gunfire
   *[gunfire-on-vehicle] gunfire-on-vehicle
} token on { $square }
svg-tank-wars-legend-artillery = artillery
svg-tank-wars-legend-support = support
svg-tank-wars-legend-gunfire = gunfire
svg-tank-wars-legend-gunfire-on-vehicle = gunfire on a vehicle

## A JSON document the operation cannot take (BAD_REQUEST), as serde_json
## classifies the fault: English in serde_json's words ($error), other
## languages from the same facts ($fault, $name, $unexpected, $value,
## $expected, $choices), where it is ($in, $param, $index, $at) and its
## position ($line 0: none known).

json-syntax = { $in ->
    [query] query parameter `{ $param }`: {""}
    [item] requests[{ $index }]: {""}
    [claim] claims[{ $index }].request: {""}
   *[body] {""}
}malformed JSON: { $error }{ $line ->
    [0] {""}
   *[other] {" at line "}{ $line } column { $column }
}
json-data = { $in ->
    [query] query parameter `{ $param }`: {""}
    [item] requests[{ $index }]: {""}
    [claim] claims[{ $index }].request: {""}
   *[body] {""}
}{ $at ->
    [none] {""}
   *[other] field `{ $at }`: {""}
}{ $error }{ $line ->
    [0] {""}
   *[other] {" at line "}{ $line } column { $column }
}

## A notation's fault (BAD_POSITION, BAD_LAYOUT, BAD_MOVE_NOTATION): the
## fault the engine found and the facts it names.

notation-fields = a position is `<placement> <side> <ply>`, e.g. `11/11/11/11/11/11/11/11/11/11/10C w 0`
notation-side = side to move must be `w` or `b`, not `{ $found }`
notation-ranks = the placement has { $found } ranks separated by `/`, expected 11
notation-ply = the ply must be a non-negative integer, not `{ $found }`
notation-ply-too-large = the ply `{ $found }` is too large
notation-empty-run = rank { $rank }: `{ $found }` is not a number of empty squares (1..11)
notation-piece-character = rank { $rank }: unexpected character { $found }; use T C t c and 1..11
notation-rank-width = rank { $rank } covers { $covers } squares, expected 11
notation-move = `{ $found }` is not a move: write two squares such as `j4-j5` or `d10xd4`
notation-square = `{ $found }` is not a square (a1 .. k11)
notation-layout-rows = a layout is `{ $name }` or 11 rows separated by `/`, found { $found } { $found ->
    [one] row
   *[other] rows
}{ $name-like ->
    [yes] {" (unknown layout name?)"}
   *[no] {""}
}
notation-layout-row-length = row { $row } (rank { $rank }) has { $found } squares, expected 11
notation-layout-character = unexpected character { $found } at { $square }: use . # ~ w W b B
notation-commander-starts = a layout needs exactly one { $side } commander start (`{ $letter }`), found { $count }

## A position or state that breaks an invariant (INVALID_POSITION): the
## invariant and the facts that say where.

invalid-tank-battle-square-twice = tanks of both sides stand on { $square }
invalid-tank-battle-tank-on-mine = a tank stands on the mine at { $square }
invalid-tank-battle-tank-on-contaminated = the normal tank at { $square } stands on a contaminated square
invalid-tank-battle-several-commanders = { $side } has more than one commander
invalid-tank-war-board-size = the board must have 1 to { $max } rows and columns, not { $rows }x{ $cols }
invalid-tank-war-territory = territory must have { $rows } rows of { $cols } letters U or D
invalid-tank-war-duplicate-name = { $owner } has two tanks named { $name }
invalid-tank-war-empty-track = the track of { $owner }'s { $name } is empty
invalid-tank-war-track-off-board = the track of { $owner }'s { $name } leaves the board at { $square }
invalid-tank-war-track-not-a-chain = the track of { $owner }'s { $name } steps from { $from } to { $to }, which are not orthogonal neighbours
invalid-tank-war-at-out-of-range = { $owner }'s { $name } is at index { $at } of a track of { $len } squares
invalid-tank-war-shared-square = two tanks stand on { $square }
invalid-tank-wars-board-size = the board must have 2 to { $max } columns and rows, not { $cols }x{ $rows }
invalid-tank-wars-too-many-vehicles = { $player } has more than 3 vehicles
invalid-tank-wars-slot = vehicle { $vehicle }: slot must be 1, 2 or 3, each used once per player
invalid-tank-wars-duplicate-id = two vehicles are called { $vehicle }
invalid-tank-wars-armor = vehicle { $vehicle }: armor must be at least 1
invalid-tank-wars-square = { $square } is not a square of the board
invalid-tank-wars-shared-square = two vehicles stand on { $square }
invalid-tank-wars-duplicate-token = the { $kind } tokens list { $square } twice

## The board (`/board/`): the page's own texts, served to it as
## `/board/texts/en.json` (variables as `{name}`, filled by the page).

board-title = tank-rules board
board-game-tank-battle = Tank Battle
board-language = Language
board-white = White
board-black = Black
board-to-move = { $side } to move
board-score = Score: White { $white }, Black { $black }
board-finished-winner = The game is over: { $side } wins.
board-finished-draw = The game is over: a draw.
board-end-all_in_base = Every tank one side has left stands in the other side's base; the score decides.
board-end-no_move = The side to move has no legal move; the score decides.
board-end-repetition = A position stood as often as the end policy allows; the score decides.
board-end-ply_limit = The move limit is reached; the score decides.
board-end-no_moves = A player had no tank that could move; surviving tanks decide, then territory.
board-end-time = A clock ran out.
board-end-destroyed = A player's vehicles were all destroyed.
board-max-plies = End the game at move (plies; empty: never)
board-repetition = End the game when a position stands this often (empty: the server's rule)
board-level = AI level
board-ai-move = Suggest a move
board-ai-lines = The AI's lines
board-ai-line = { $move }: { $evaluation }
board-ai-line-then = { $move }: { $evaluation }; then { $then }
board-eval-even = about even
board-eval-ahead = { $points ->
    [one] { $side } is ahead by about { $points } point
   *[other] { $side } is ahead by about { $points } points
}
board-eval-wins = { $plies ->
    [one] { $side } wins by force in { $plies } ply
   *[other] { $side } wins by force in { $plies } plies
}
board-play-ai = The AI plays the other side
board-take-back = Take back
board-flip = Flip the board
board-new-game = New game
board-position = Position (TBN)
board-set-position = Set up this position
board-moves = Moves
board-first = First position
board-previous = Previous move
board-next = Next move
board-last = Last position
board-board = The board, { $side } to move
board-square-empty = { $square }, empty
board-square-piece = { $square }, { $piece }
board-square-target = { $square }, a legal move
board-piece-T = white tank
board-piece-C = white commander
board-piece-t = black tank
board-piece-c = black commander
board-kind-mine = mine
board-kind-contaminated = contaminated
board-kind-base-white = White's base
board-kind-base-black = Black's base
board-kind-commander-start = commander start
board-legend = Legend
board-selected = { $count ->
    [one] { $square } picked: { $count } legal move.
   *[other] { $square } picked: { $count } legal moves.
}
board-played = { $move } played.
board-refused = { $move } refused: { $reason }
board-thinking = The AI is thinking…
board-suggested = The AI suggests { $move }: { $evaluation }.
board-api-key = API key
board-key-needed = The service asks for an API key: enter one to go on (it is kept in this tab only).
board-key-use = Use this key
board-too-many = Too many requests: try again in { $seconds } s.
board-busy = The service is busy: try again in { $seconds } s.
board-failed = The service could not do this.
board-quoted = “{ $text }”
board-offline = The service cannot be reached.
board-keyboard = Arrow keys move between squares; Enter or Space picks a tank and plays a move; Escape lets go.
board-games = Games
board-game-tank-war = The Tank War
board-game-tank-wars = Tank Wars
board-nobody = nobody
board-events = Events
board-rounds = Rounds
board-review = Review
board-chart-title = { $game } — { $chance }
board-chance-white = White's chance to win
board-chance-of = { $player }'s chance to win
board-review-game = Review the game
board-reviewing = The judge is reviewing the game…
board-find-puzzles = Puzzles from this game
board-puzzles = Puzzles
board-finding-puzzles = Looking for the game's puzzles…
board-no-puzzles = This game has no puzzle: no move in it was the only one that kept an advantage.
board-puzzle-task = Puzzle { $index } of { $count }: { $side } to move, and only one move keeps the advantage. Rated { $rating }; about: { $themes }.
board-puzzle-reply = { $move }: right. The answer: { $reply }. Your move again.
board-puzzle-solved = { $move }: right. Solved: { $moves }.
board-puzzle-wrong = { $move } is not the only move. Try again.
board-puzzle-refuted = { $move } was played in the game ({ $label }); the review's answer to it: { $refutation }. Try again.
board-puzzle-next = Next puzzle
board-puzzle-leave = Back to the game
board-theme-capture = a capture
board-theme-base_entry = entering the base
board-theme-commander_start = the commander start
board-theme-forced_win = a forced win
board-theme-defence = defence
board-theme-exchange = an exchange
board-theme-locked_in = a tank locked in the base
board-reviewed = { $count ->
    [one] The game reviewed: { $count } move judged.
   *[other] The game reviewed: { $count } moves judged.
}
board-verdict = { $player } played { $move }: { $label }, { $loss } points of the chance to win lost; best: { $best }.
board-verdict-best = { $player } played { $move }: { $label }, the best move the judge found.
board-verdict-as-good = { $player } played { $move }: { $label }, as good as the judge's { $best }.
board-best-line = Best line: { $line }.
board-refutation = Refuted by: { $line }.
board-accuracy = { $player }: accuracy { $accuracy }, { $blunders }, { $mistakes }, { $inaccuracies }
board-count-blunders = { $count ->
    [one] { $count } blunder
   *[other] { $count } blunders
}
board-count-mistakes = { $count ->
    [one] { $count } mistake
   *[other] { $count } mistakes
}
board-count-inaccuracies = { $count ->
    [one] { $count } inaccuracy
   *[other] { $count } inaccuracies
}
board-war-help = Each round both players pick one tank to move a square along its track; a pick stays hidden until both are in. Click a tank, or use the arrow keys and Enter, or the buttons.
board-war-ai = The AI plays
board-war-show-equilibrium = Show the equilibrium
board-war-board = The Tank War after round { $round }
board-war-square = { $square }, { $owner }'s square
board-war-tank = { $square }, { $owner }'s { $name } (type { $type })
board-war-pickable = can be picked
board-war-legend-land-u = U's territory
board-war-legend-land-d = D's territory
board-war-legend-track = a tank's track
board-war-legend-destroyed = destroyed in the last round
board-war-legend-a = A fires at the 4 diagonal neighbours
board-war-legend-b = B fires at the 4 orthogonal neighbours
board-war-legend-c = C fires at the 4 squares two away in a line
board-war-destroyed = { $owner }'s { $name } destroyed in the last round
board-war-clocks = Clocks: U { $u }, D { $d }
board-war-score = Tanks: U { $u }, D { $d } · squares: U { $tu }, D { $td }
board-war-pick-for = { $player } picks a tank:
board-war-to-pick = Round { $round }: { $player } to pick.
board-war-looking = After round { $round }: step forward to go on.
board-war-picked = { $player } has picked (hidden until both have).
board-war-resolved = Round { $round }: U picked { $u }, D picked { $d }.
board-war-value-wins = With best play from here { $player } wins.
board-war-value-draw = With best play from here the game is a draw.
board-war-value-mixed = With best play from here U scores { $value } on average (1 a win, 0 a draw, −1 a loss).
board-war-strategy-of = { $player }'s best mix of picks
board-war-event-move = { $player }'s { $tank } moves { $from } → { $to }
board-war-event-blocked = { $player }'s { $tank } is blocked on { $from } (both entered { $to })
board-war-event-destroyed = { $player }'s { $tank } on { $square } is destroyed by { $by }
board-war-event-timeout = { $player }'s clock ran out
board-cobi-help = Click one of your vehicles, then one of its destinations, for each vehicle; place gunfire with its button; then give the orders. They stay hidden until both players' are in.
board-cobi-place-gunfire = Place gunfire
board-cobi-seed = Supply drop seed
board-cobi-confirm = Give these orders
board-cobi-board = Tank Wars after round { $round }, { $first } first
board-cobi-vehicle = vehicle { $id }, armor { $armor }, card slot { $slot }
board-cobi-destroyed = { $id } destroyed in the last round
board-cobi-artillery = an artillery token
board-cobi-support = a support token
board-cobi-gunfire = a gunfire token
board-cobi-planned = gunfire placed this round
board-cobi-fired = gunfire of the last round
board-cobi-destination = a destination ({ $order })
board-cobi-ordered = where { $id } is ordered
board-cobi-orders-for = { $player }'s orders:
board-cobi-order = { $id }: { $order } to { $to }
board-cobi-no-order = { $id }: no order yet
board-cobi-gunfire-placed = Gunfire: { $squares } (at most { $max })
board-cobi-score = Vehicles: P1 { $v1 }, P2 { $v2 } · armor: P1 { $a1 }, P2 { $a2 } · support cards: P1 { $s1 }, P2 { $s2 }
board-cobi-to-order = Round { $round }: { $player } gives orders.
board-cobi-looking = After round { $round }: step forward to go on.
board-cobi-given = { $player } has given orders (hidden until both have).
board-cobi-resolved = Round { $round } resolved.
board-cobi-event-moved = { $vehicle } moves { $from } → { $to }
board-cobi-event-cancelled = { $vehicle }'s order to { $to } is cancelled: it stays on { $at }
board-cobi-event-artillery-hit = { $vehicle } hits artillery on { $square }: armor −1
board-cobi-event-support-taken = { $vehicle } takes the support token on { $square } for { $player }
board-cobi-event-gunfire-hit = gunfire hits { $vehicle } on { $square }: armor −1
board-cobi-event-destroyed = { $vehicle } is destroyed on { $square }
board-cobi-event-supply-drop = a supply drop lands on { $square }
board-cobi-event-gunfire-placed = { $player } places gunfire on { $squares }
board-cobi-legend-p1 = P1's vehicle
board-cobi-legend-p2 = P2's vehicle
board-cobi-legend-slot = its card slot (the order it moves in)
board-cobi-legend-armor = its armor
board-forced-after = After it { $player } wins by force in { $plies } plies.
board-forced-thrown = Before it { $player } had a forced win in { $plies } plies.
board-edit = Edit the position
board-edit-done = Set up the edited position
board-editing = Editing: a click on a square changes what stands on it (nothing, a white tank, a black tank, a white commander, a black commander).
board-edited = { $square }: { $piece }
board-empty = nothing
board-side = Side to move
