# Čeština. Pojmy Tankového boje podle jeho českých pravidel (BrainKing:
# tank, velitelský tank, obyčejný tank, mina, zamořené území, základna,
# soupeřova základna, tah, zajmout / zničit, přeskakovat); The Tank War
# (Válka tanků): tank, dráha, volba, kolo, hodiny; Tank Wars (Tankové
# války): vozidlo, rozkaz, směr, vzdálenost, dělostřelectvo, palba,
# podpora. Stejné zprávy a proměnné jako en.ftl.

## Obaly: podrobnosti odmítnutého tahu.

refused-at-square = { $reason } ({ $square })
refused-by-player = { $player }: { $reason }
refused-vehicle = { $player }, vozidlo „{ $vehicle }“: { $reason }

## Pravidla Tankového boje.

reason-NO_TANK_AT_FROM = na výchozím poli nestojí žádný tank
reason-NOT_YOUR_TANK = tank na výchozím poli patří soupeři
reason-NOT_A_LINE = tank se pohybuje vodorovně, svisle nebo úhlopříčně
reason-MINE = tank nesmí vstoupit na minu ani ji přejet
reason-CONTAMINATED = na zamořené území smí vstoupit (a projet jím) jen velitelský tank
reason-LOCKED_IN_ENEMY_BASE = tank, který dosáhl soupeřovy základny, nesmí tuto základnu opustit
reason-PATH_BLOCKED = tank nesmí přeskakovat vlastní ani soupeřovy tanky
reason-OWN_TANK_AT_TO = tank nesmí vstoupit na pole vlastního tanku
reason-CAPTURE_IN_CONTAMINATED = velitelské tanky nesmí proti sobě bojovat v zamořeném území

## Všechny hry.

reason-GAME_OVER = hra skončila

## Pravidla Války tanků (The Tank War).

reason-NO_SUCH_TANK = hráč nemá žádný nezničený tank tohoto jména
reason-END_OF_TRACK = tank je na konci své dráhy
reason-SQUARE_OCCUPIED = další pole dráhy tanku je obsazené

## Pravidla Tankových válek (Tank Wars).

reason-NO_SUCH_VEHICLE = hráč nemá vozidlo s tímto označením
reason-MISSING_ORDER = každé vozidlo každého hráče potřebuje právě jeden rozkaz
reason-BAD_DIRECTION = směr je N, E, S nebo W
reason-BAD_DISTANCE = vzdálenost je 1, 2 nebo 3

## Problémy: název každého kódu (u pravidla jeho důvod).

title-BAD_REQUEST = Požadavek nemá tvar, který operace přijímá
title-INVALID_POSITION = Pozice porušuje pravidlo rozestavení
title-LIMIT_EXCEEDED = Požadavek překračuje limit serveru
title-UNAUTHORIZED = Chybí klíč API, nebo je neznámý
title-FORBIDDEN = Přístup odepřen
title-NOT_FOUND = Nenalezeno
title-METHOD_NOT_ALLOWED = Metoda není povolena
title-NOT_ACCEPTABLE = Nepřijatelný formát odpovědi
title-REQUEST_TIMEOUT = Vypršel čas požadavku
title-LENGTH_REQUIRED = Chybí délka těla
title-PAYLOAD_TOO_LARGE = Tělo požadavku je příliš velké
title-UNSUPPORTED_MEDIA_TYPE = Nepodporovaný typ obsahu
title-EXPECTATION_FAILED = Očekávání nelze splnit
title-TOO_MANY_REQUESTS = Příliš mnoho požadavků
title-SERVICE_BUSY = Služba je zaneprázdněná
title-INTERNAL = Vnitřní chyba serveru
title-BAD_POSITION = Zápis pozice je chybný
title-BAD_LAYOUT = Rozložení desky je chybné
title-BAD_MOVE_NOTATION = Zápis tahu je chybný
title-GAME_OVER = Hra skončila
title-NO_TANK_AT_FROM = { reason-NO_TANK_AT_FROM }
title-NOT_YOUR_TANK = { reason-NOT_YOUR_TANK }
title-NOT_A_LINE = { reason-NOT_A_LINE }
title-MINE = { reason-MINE }
title-CONTAMINATED = { reason-CONTAMINATED }
title-LOCKED_IN_ENEMY_BASE = { reason-LOCKED_IN_ENEMY_BASE }
title-PATH_BLOCKED = { reason-PATH_BLOCKED }
title-OWN_TANK_AT_TO = { reason-OWN_TANK_AT_TO }
title-CAPTURE_IN_CONTAMINATED = { reason-CAPTURE_IN_CONTAMINATED }
title-NO_SUCH_TANK = Neplatná volba
title-END_OF_TRACK = Neplatná volba
title-SQUARE_OCCUPIED = Neplatná volba
title-NO_SUCH_VEHICLE = Neplatné rozkazy
title-MISSING_ORDER = Neplatné rozkazy
title-BAD_DIRECTION = Neplatné rozkazy
title-BAD_DISTANCE = Neplatné rozkazy

## Graf rozboru partie.

chart-title = { $game } — šance hráče { $player } na výhru
chart-axis = odehrané tahy — šance hráče { $player } na výhru
chart-mark = tah { $move }: { $player } zahrál { $played } ({ $label }, −{ $loss })
label-best = nejlepší
label-excellent = výborný
label-good = dobrý
label-inaccuracy = nepřesnost
label-mistake = chyba
label-blunder = hrubá chyba

## Odmítnutí limitem: co požadavek žádá a jaký je limit (LIMIT_EXCEEDED).

limit-tanks = { $count } tanků je víc, než tento server přijímá ({ $max })
limit-track = dráha tanku { $tank } má { $count } polí, víc, než tento server přijímá ({ $max })
limit-batch-requests = { $count } požadavků je víc, než tento server provede v jedné dávce ({ $max })
limit-batch-searches = { $count } výpočtů ({ $names }) je víc, než tento server provede v jedné dávce ({ $max })
limit-review-steps = { $count } kroků v poli `{ $field }` je víc, než tento server najednou rozebere ({ $max })
limit-replay-steps = { $count } kroků v poli `{ $field }` je víc, než tento server najednou přehraje ({ $max })
limit-replay-work = přehrát { $steps } kroků ve stavu o { $cells } polích je { $work } jednotek práce, víc, než tento server udělá pro jedno přehrání ({ $max })
limit-answer = odpověď { $foreseen ->
    [yes] by měla
   *[no] má
} asi { $bytes } bajtů, víc, než tento server zapíše ({ $max }); žádejte méně
limit-answer-passed = odpověď přesáhla { $max } bajtů, nejvíc, co tento server zapíše, u `{ $field }`; žádejte méně
limit-perft-depth = hloubka { $depth } je nad limitem perft tohoto serveru ({ $max })
limit-perft-nodes = perft by generoval tahy pro víc než { $max } pozic; žádejte menší hloubku
limit-perft-stopped = dávka vyčerpala svůj časový rozpočet na výpočty (časový limit AI serveru)
limit-budget-spent = dávka vyčerpala svůj časový rozpočet na výpočty ({ $cap } ms, časový limit AI serveru, sdílený všemi jejími výpočty)
limit-budget-share = rozbor trval déle než jeho podíl ({ $share } ms) na časovém rozpočtu dávky ({ $cap } ms, časový limit AI serveru, dělený mezi její výpočty podle jejich cen); rozeberte ho samostatně
limit-budget-too-little = rozbor potřebuje aspoň { $needed } ms z časového rozpočtu dávky ({ $cap } ms, časový limit AI serveru, sdílený všemi jejími výpočty) a jeho podíl je { $share } ms; rozeberte ho samostatně, nebo s méně kroky v dávce

## Podrobnost problému, kde nejde o pravidlo, zápis, limit ani chybu
## JSON: co bylo v tomto požadavku špatně, s jeho fakty.

detail-body-timeout = tělo požadavku nedorazilo do { $secs } s
detail-after-close = dřívější požadavek tohoto spojení žádal jeho uzavření (`Connection: close`); požadavky odeslané za ním se nezpracují
detail-key-missing = tato služba vyžaduje klíč API: pošlete ho v `X-Api-Key` (nebo `Authorization: Bearer`)
detail-key-unknown = tento klíč API služba nezná
detail-quota = kvóta `{ $policy }` ({ $quota } { $policy ->
    [requests] požadavků
    [searches] výpočtů
   *[other] pokusů
} za minutu) je vyčerpána (tento požadavek stojí { $price }); zkuste to znovu za { $retry } s
detail-unaffordable = tento požadavek stojí { $price } { $policy ->
    [requests] požadavků
    [searches] výpočtů
   *[other] jednotek
} z kvóty `{ $policy }`, víc než celá kvóta { $quota } za minutu; podle ní nemůže projít nikdy
detail-busy = server je zaneprázdněn jinými výpočty; zkuste to znovu za { $retry } s
detail-no-room = server drží tolik těl požadavků a odpovědí, kolik mu paměť dovolí; zkuste to znovu za { $retry } s
detail-review-unfinished = rozbor trval déle, než tento server dovoluje ({ $cap } ms); dosavadní verdikty si server pamatuje, takže opakovaný dotaz za { $retry } s naváže tam, kde tento skončil
detail-body-too-large = tělo je větší než limit { $max } bajtů
detail-expectation = `Expect: { $expect }` nelze splnit: tento server splní jen `100-continue`
detail-media-type = tělo musí být JSON odeslaný s `Content-Type: application/json`
detail-encoding = tělo musí být odesláno tak, jak je: `Content-Encoding` { $encoding } se nepřijímá
detail-not-found = takový zdroj neexistuje: { $path }
detail-method = metoda { $method } zde není povolena; povolené: { $allow }
detail-internal = vnitřní chyba serveru: { $error }
detail-other-layer = { $code ->
    [BAD_REQUEST] Požadavek nemá tvar, který server přijímá.
    [UNAUTHORIZED] Tento server vyžaduje klíč API.
    [FORBIDDEN] Požadavek nesmí tento zdroj použít.
    [NOT_FOUND] Takový zdroj neexistuje.
    [METHOD_NOT_ALLOWED] Tato metoda zde není povolena.
    [NOT_ACCEPTABLE] Server neumí odpovědět v žádném z formátů, které požadavek přijímá.
    [REQUEST_TIMEOUT] Požadavek nedorazil včas.
    [LENGTH_REQUIRED] Požadavek musí uvést délku svého těla.
    [PAYLOAD_TOO_LARGE] Tělo je větší, než tento server přijímá.
    [UNSUPPORTED_MEDIA_TYPE] Tělo musí být JSON odeslaný tak, jak je, s `Content-Type: application/json`.
    [EXPECTATION_FAILED] Server splní jen `Expect: 100-continue`.
    [TOO_MANY_REQUESTS] Příliš mnoho požadavků.
    [SERVICE_BUSY] Server je zaneprázdněn.
    [INTERNAL] Vnitřní chyba serveru.
   *[other] Požadavek byl odmítnut: { $said }
}

## Požadavek chybného tvaru, který serde nevidí.

request-in-batch = requests[{ $index }]: { $detail }
request-no-picks = `moves` musí uvést tah pro U, D nebo oba
request-batch-item = každý požadavek musí být objekt s `op`
request-batch-op = `op` musí být jedno z { $ops }
request-tank-name = jméno tanku má 1 až { $max } znaků
request-compare-request = `request` tvrzení musí být objekt: tělo požadavku jeho operace
request-compare-op = `request` tvrzení je tělo požadavku operace, kterou jmenuje `op` tvrzení: vlastní `op` nemá
compare-listed-legal = služba tento tah považuje za platný, ale její seznam ho zapisuje jinak
request-level = level musí být 1 až 8, ne { $value }
request-multipv = multipv musí být 1 až { $max }, ne { $value }
request-gunfire-tokens = gunfire_tokens musí být 0 až { $max }, ne { $value }
request-too-many-arrows = { $count } tahů v parametru `{ $param }` je víc, než obrázek nakreslí ({ $max })
request-query-too-long = parametr dotazu `{ $param }` má { $count } znaků, víc než { $max }, které tento server čte
request-query-unknown = neznámý parametr dotazu `{ $param }`; { $known ->
    [none] tato operace žádné nepřijímá
   *[other] tato operace přijímá { $known }
}
request-query-string = řetězec dotazu nelze přečíst: { $fault ->
    [duplicate] parametr `{ $param }` je uveden víckrát
    [missing] chybí parametr `{ $param }`
   *[other] { $error }
}
request-path = cestu nelze přečíst: { $error }
request-body-read = čtení těla selhalo: { $error }
request-judge-nodes = rozhodčí potřebuje aspoň { $min } pozic na jedno hledání, aby jeho verdikt něco znamenal, ne { $value }
request-max-puzzles = max_puzzles musí být od 1 do { $max }, ne { $value }
request-rules-max-plies = limit tahů je 1 až { $max }, ne { $value }
request-rules-repetition = pravidlo opakování dovolí pozici nastat 2krát až { $max }krát, ne { $value }
request-play-only = `{ $field }` se zadává jen s `"play": true`
request-play-other = `"play": true` potřebuje tah druhého hráče v `{ $field }` (a ne tah hráče { $player }: ten určí AI)
request-record-game = toto je záznam hry { $found }, ne hry `{ $game }`
request-judge-time = rozhodčí potřebuje aspoň { $min } ms na jednu pozici, aby jeho verdikt něco znamenal, ne { $value }
request-schema = požadavek `{ $op }` porušuje své schéma: { $fault ->
    [required] chybí povinné pole `{ $name }`
    [additional] pole `{ $name }` není dovoleno
    [type] hodnota { $value } není typu { $expected }
    [enum] hodnota { $value } není žádná z dovolených ({ $expected })
    [minimum] hodnota { $value } je menší než { $limit }
    [maximum] hodnota { $value } je větší než { $limit }
    [min-length] text { $value } je kratší než { $limit } znaků
    [max-length] text { $value } je delší než { $limit } znaků
    [min-items] seznam má méně než { $limit } položek
    [max-items] seznam má víc než { $limit } položek
    [pattern] hodnota { $value } neodpovídá vzoru `{ $expected }`
   *[other] hodnota { $value } neodpovídá schématu
}

## Obrázky (render.svg): název a popisek obrázku, bublinky a popisky toho,
## co stojí na desce.

svg-tank-battle-title = Tankový boj: { $line }
svg-tank-battle-line = Na tahu { $side ->
    [white] bílý
   *[black] černý
} · půltah { $ply }
svg-tank-battle-last-move = { $line } · poslední tah { $move }
svg-tank-battle-piece = { $side ->
    [white] bílý
   *[black] černý
} { $role ->
    [commander] velitelský tank
   *[tank] obyčejný tank
} na { $square }
svg-tank-war-title = Válka tanků: { $line }
svg-tank-war-line = Kolo { $round } · U { $u } · D { $d }
svg-tank-war-tank = tank { $name } hráče { $owner } (typ { $type }) na { $square }, před ním { $left } { $left ->
    [one] pole
    [few] pole
   *[other] polí
} dráhy
svg-tank-wars-title = Tankové války: { $line }
svg-tank-wars-line = Kolo { $round } · první hraje { $first } · karty podpory P1 { $p1 } · P2 { $p2 }
svg-tank-wars-vehicle = vozidlo { $id } hráče { $owner } na { $square }: pancíř { $armor }, pozice karty { $slot }
svg-tank-wars-armor = pancíř { $armor }
svg-tank-wars-token = žeton { $kind ->
    [artillery] dělostřelectva
    [support] podpory
    [gunfire] palby
   *[gunfire-on-vehicle] palby na vozidlo
} na { $square }
svg-tank-wars-legend-artillery = dělostřelectvo
svg-tank-wars-legend-support = podpora
svg-tank-wars-legend-gunfire = palba
svg-tank-wars-legend-gunfire-on-vehicle = palba na vozidlo

## JSON, který operace nepřijme (BAD_REQUEST), podle toho, jak chybu
## zařadí serde_json: stejná fakta jako anglický text.

json-syntax = { $in ->
    [query] parametr dotazu `{ $param }`: {""}
    [item] requests[{ $index }]: {""}
    [claim] claims[{ $index }].request: {""}
   *[body] {""}
}chybný JSON{ $line ->
    [0] {""}
   *[other] {" na řádku "}{ $line }, ve sloupci { $column }
}: { $fault ->
    [eof] text skončil dřív, než byl JSON celý
    [expected-colon] chybí `:`
    [expected-comma-or-bracket] očekávána `,` nebo `]`
    [expected-comma-or-brace] očekávána `,` nebo `{"}"}`
    [expected-quote] očekávány uvozovky `"`
    [expected-value] očekávána hodnota
    [invalid-escape] neplatná escape sekvence
    [invalid-number] neplatné číslo
    [number-out-of-range] číslo je mimo rozsah
    [invalid-unicode] neplatný znak Unicode
    [control-character] řídicí znak uvnitř řetězce
    [key-not-string] klíč objektu musí být řetězec
    [trailing-comma] čárka navíc před koncem
    [trailing-characters] další znaky za koncem JSON
    [too-deep] JSON je vnořený příliš hluboko
   *[other] { $error }
}
json-data = { $in ->
    [query] parametr dotazu `{ $param }`: {""}
    [item] requests[{ $index }]: {""}
    [claim] claims[{ $index }].request: {""}
   *[body] {""}
}{ $at ->
    [none] {""}
   *[other] pole `{ $at }`: {""}
}{ $fault ->
    [invalid-type] neplatný typ: { $unexpected ->
        [string] řetězec { $value }
        [integer] celé číslo { $value }
        [float] desetinné číslo { $value }
        [boolean] logická hodnota { $value }
        [character] znak { $value }
        [null] null
        [array] seznam
        [object] objekt
       *[other] { $value }
    }, očekáváno { $expected ->
        [string] řetězec
        [boolean] logická hodnota
        [array] seznam
        [object] objekt
        [integer] celé číslo
        [number] číslo
        [choices] jedno z: { $choices }
       *[other] { $choices }
    }
    [invalid-value] neplatná hodnota: { $unexpected ->
        [string] řetězec { $value }
        [integer] celé číslo { $value }
        [float] desetinné číslo { $value }
        [boolean] logická hodnota { $value }
        [character] znak { $value }
        [null] null
        [array] seznam
        [object] objekt
       *[other] { $value }
    }, očekáváno { $expected ->
        [string] řetězec
        [boolean] logická hodnota
        [array] seznam
        [object] objekt
        [integer] celé číslo
        [number] číslo
        [choices] jedno z: { $choices }
       *[other] { $choices }
    }
    [invalid-length] neplatná délka { $value }, očekáváno { $choices }
    [unknown-variant] neznámá hodnota `{ $name }`, očekáváno jedno z: { $choices }
    [unknown-field] neznámé pole `{ $name }`, očekáváno jedno z: { $choices }
    [missing-field] chybí pole `{ $name }`
    [duplicate-field] pole `{ $name }` je uvedeno dvakrát
   *[other] { $error }
}{ $line ->
    [0] {""}
   *[other] {" na řádku "}{ $line }, ve sloupci { $column }
}

## Chyba zápisu (BAD_POSITION, BAD_LAYOUT, BAD_MOVE_NOTATION): co engine
## našel a kde.

notation-fields = pozice se zapisuje `<rozestavení> <strana> <půltah>`, např. `11/11/11/11/11/11/11/11/11/11/10C w 0`
notation-side = strana na tahu musí být `w` nebo `b`, ne `{ $found }`
notation-ranks = rozestavení má { $found } { $found ->
    [one] řadu
    [few] řady
   *[other] řad
} oddělených `/`, očekáváno 11
notation-ply = půltah musí být nezáporné celé číslo, ne `{ $found }`
notation-ply-too-large = půltah `{ $found }` je příliš velký
notation-empty-run = řada { $rank }: `{ $found }` není počet prázdných polí (1..11)
notation-piece-character = řada { $rank }: neočekávaný znak { $found }; použijte T C t c a 1..11
notation-rank-width = řada { $rank } pokrývá { $covers } { $covers ->
    [one] pole
    [few] pole
   *[other] polí
}, očekáváno 11
notation-move = `{ $found }` není tah: napište dvě pole, např. `j4-j5` nebo `d10xd4`
notation-square = `{ $found }` není pole (a1 .. k11)
notation-layout-rows = rozložení je `{ $name }` nebo 11 řad oddělených `/`, nalezeno { $found } { $found ->
    [one] řada
    [few] řady
   *[other] řad
}{ $name-like ->
    [yes] {" (neznámý název rozložení?)"}
   *[no] {""}
}
notation-layout-row-length = řádek { $row } (řada { $rank }) má { $found } { $found ->
    [one] pole
    [few] pole
   *[other] polí
}, očekáváno 11
notation-layout-character = neočekávaný znak { $found } na poli { $square }: použijte . # ~ w W b B
notation-commander-starts = rozložení potřebuje právě jedno výchozí pole { $side ->
    [white] bílého
   *[black] černého
} velitelského tanku (`{ $letter }`), nalezeno { $count }

## Pozice nebo stav, který porušuje pravidlo hry (INVALID_POSITION): které
## pravidlo a kde.

invalid-tank-battle-square-twice = na poli { $square } stojí tanky obou stran
invalid-tank-battle-tank-on-mine = na mině na poli { $square } stojí tank
invalid-tank-battle-tank-on-contaminated = obyčejný tank na poli { $square } stojí na zamořeném území
invalid-tank-battle-several-commanders = { $side ->
    [white] bílý
   *[black] černý
} má víc než jeden velitelský tank
invalid-tank-war-board-size = deska musí mít 1 až { $max } řad a sloupců, ne { $rows }x{ $cols }
invalid-tank-war-territory = území musí mít { $rows } řad po { $cols } písmenech U nebo D
invalid-tank-war-duplicate-name = { $owner } má dva tanky jménem { $name }
invalid-tank-war-empty-track = dráha tanku { $name } hráče { $owner } je prázdná
invalid-tank-war-track-off-board = dráha tanku { $name } hráče { $owner } opouští desku na { $square }
invalid-tank-war-track-not-a-chain = dráha tanku { $name } hráče { $owner } vede z { $from } na { $to }, která nejsou sousední pole v řadě ani sloupci
invalid-tank-war-at-out-of-range = tank { $name } hráče { $owner } je na indexu { $at } dráhy o { $len } polích
invalid-tank-war-shared-square = na poli { $square } stojí dva tanky
invalid-tank-wars-board-size = deska musí mít 2 až { $max } sloupců a řad, ne { $cols }x{ $rows }
invalid-tank-wars-too-many-vehicles = { $player } má víc než 3 vozidla
invalid-tank-wars-slot = vozidlo { $vehicle }: pozice karty musí být 1, 2 nebo 3, každá u hráče jednou
invalid-tank-wars-duplicate-id = dvě vozidla se jmenují { $vehicle }
invalid-tank-wars-armor = vozidlo { $vehicle }: pancíř musí být aspoň 1
invalid-tank-wars-square = { $square } není pole desky
invalid-tank-wars-shared-square = na poli { $square } stojí dvě vozidla
invalid-tank-wars-duplicate-token = žetony { $kind ->
    [artillery] dělostřelectva
    [support] podpory
   *[gunfire] palby
} uvádějí pole { $square } dvakrát

## Deska (`/board/`): texty stránky, posílané jí jako
## `/board/texts/cs.json` (proměnné jako `{name}`, doplní je stránka).

board-title = deska tank-rules
board-game-tank-battle = Tanková bitva
board-language = Jazyk
board-white = Bílý
board-black = Černý
board-to-move = Na tahu je { $side }
board-score = Skóre: Bílý { $white }, Černý { $black }
board-finished-winner = Hra skončila: vyhrává { $side }.
board-finished-draw = Hra skončila remízou.
board-end-all_in_base = Všechny zbylé tanky jedné strany stojí v základně soupeře; rozhodují body.
board-end-no_move = Strana na tahu nemá žádný možný tah; rozhodují body.
board-end-repetition = Pozice se opakovala tolikrát, kolik pravidla konce hry dovolují; rozhodují body.
board-end-ply_limit = Hra dosáhla limitu tahů; rozhodují body.
board-end-no_moves = Hráč neměl žádný tank, který by se mohl pohnout; rozhodují přeživší tanky, pak území.
board-end-time = Hráči došel čas.
board-end-destroyed = Všechna vozidla jednoho hráče byla zničena.
board-max-plies = Ukončit hru po tahu (půltahy; prázdné: nikdy)
board-repetition = Ukončit hru, když pozice nastane tolikrát (prázdné: pravidlo serveru)
board-level = Úroveň AI
board-ai-move = Navrhnout tah
board-ai-lines = Varianty AI
board-ai-line = { $move }: { $evaluation }
board-ai-line-then = { $move }: { $evaluation }; dále { $then }
board-eval-even = zhruba vyrovnaně
board-eval-ahead = { $points ->
    [one] { $side } vede zhruba o { $points } bod
    [few] { $side } vede zhruba o { $points } body
    [many] { $side } vede zhruba o { $points } bodu
   *[other] { $side } vede zhruba o { $points } bodů
}
board-eval-wins = { $plies ->
    [one] { $side } vyhraje vynuceně za { $plies } půltah
    [few] { $side } vyhraje vynuceně za { $plies } půltahy
   *[other] { $side } vyhraje vynuceně za { $plies } půltahů
}
board-play-ai = AI hraje za soupeře
board-take-back = Vzít tah zpět
board-flip = Otočit desku
board-new-game = Nová hra
board-position = Pozice (TBN)
board-set-position = Postavit tuto pozici
board-moves = Tahy
board-first = Výchozí pozice
board-previous = Předchozí tah
board-next = Další tah
board-last = Poslední pozice
board-board = Deska, na tahu je { $side }
board-square-empty = { $square }, prázdné
board-square-piece = { $square }, { $piece }
board-square-target = { $square }, možný tah
board-piece-T = bílý tank
board-piece-C = bílý velitelský tank
board-piece-t = černý tank
board-piece-c = černý velitelský tank
board-kind-mine = mina
board-kind-contaminated = zamořené území
board-kind-base-white = základna bílého
board-kind-base-black = základna černého
board-kind-commander-start = výchozí pole velitelského tanku
board-legend = Legenda
board-selected = { $count ->
    [one] Vybrán { $square }: { $count } možný tah.
    [few] Vybrán { $square }: { $count } možné tahy.
   *[other] Vybrán { $square }: { $count } možných tahů.
}
board-played = Zahráno { $move }.
board-refused = Tah { $move } nelze zahrát: { $reason }
board-thinking = AI přemýšlí…
board-suggested = AI navrhuje { $move }: { $evaluation }.
board-api-key = Klíč API
board-key-needed = Služba žádá klíč API: zadejte ho a pokračujte (zůstane jen v této záložce).
board-key-use = Použít klíč
board-too-many = Příliš mnoho požadavků: zkuste to znovu za { $seconds } s.
board-busy = Služba je vytížená: zkuste to znovu za { $seconds } s.
board-failed = Služba to nemohla udělat.
board-quoted = „{ $text }“
board-offline = Služba není dostupná.
board-keyboard = Šipky přecházejí mezi poli; Enter nebo mezerník vybere tank a zahraje tah; Escape výběr zruší.
board-games = Hry
board-game-tank-war = Tanková válka
board-game-tank-wars = Tank Wars (desková hra)
board-nobody = nikdo
board-events = Události
board-rounds = Kola
board-review = Rozbor
board-chart-title = { $game } — { $chance }
board-chance-white = šance bílého na výhru
board-chance-of = šance hráče { $player } na výhru
board-review-game = Rozebrat hru
board-reviewing = Rozhodčí rozebírá hru…
board-find-puzzles = Úlohy z této hry
board-puzzles = Úlohy
board-finding-puzzles = Hledám úlohy v této hře…
board-no-puzzles = V této hře není úloha: žádný tah nebyl jediný, který by udržel výhodu.
board-puzzle-task = Úloha { $index } z { $count }: na tahu { $side } a výhodu udrží jen jeden tah. Obtížnost { $rating }; téma: { $themes }.
board-puzzle-reply = { $move }: správně. Odpověď: { $reply }. Jste znovu na tahu.
board-puzzle-solved = { $move }: správně. Vyřešeno: { $moves }.
board-puzzle-wrong = { $move } není jediný tah. Zkuste to znovu.
board-puzzle-refuted = { $move } se ve hře hrálo ({ $label }); odpověď rozboru: { $refutation }. Zkuste to znovu.
board-puzzle-next = Další úloha
board-puzzle-leave = Zpět ke hře
board-theme-capture = braní
board-theme-base_entry = vstup do základny
board-theme-commander_start = výchozí pole velitele
board-theme-forced_win = vynucená výhra
board-theme-defence = obrana
board-theme-exchange = výměna
board-theme-locked_in = tank zamčený v základně
board-reviewed = { $count ->
    [one] Hra rozebrána: posouzen { $count } tah.
    [few] Hra rozebrána: posouzeny { $count } tahy.
   *[other] Hra rozebrána: posouzeno { $count } tahů.
}
board-verdict = { $player } zahrál { $move }: { $label }, ztráta { $loss } bodů šance na výhru; nejlepší: { $best }.
board-verdict-best = { $player } zahrál { $move }: { $label }, nejlepší tah, který rozhodčí našel.
board-verdict-as-good = { $player } zahrál { $move }: { $label }, stejně dobrý jako { $best } rozhodčího.
board-best-line = Nejlepší varianta: { $line }.
board-refutation = Vyvrácení: { $line }.
board-accuracy = { $player }: přesnost { $accuracy }, { $blunders }, { $mistakes }, { $inaccuracies }
board-count-blunders = { $count ->
    [one] { $count } hrubá chyba
    [few] { $count } hrubé chyby
   *[other] { $count } hrubých chyb
}
board-count-mistakes = { $count ->
    [one] { $count } chyba
    [few] { $count } chyby
   *[other] { $count } chyb
}
board-count-inaccuracies = { $count ->
    [one] { $count } nepřesnost
    [few] { $count } nepřesnosti
   *[other] { $count } nepřesností
}
board-war-help = V každém kole oba hráči vyberou jeden tank, který popojede o pole po své dráze; výběr zůstane skrytý, dokud nevyberou oba. Klikněte na tank, nebo použijte šipky a Enter, nebo tlačítka.
board-war-ai = AI hraje za
board-war-show-equilibrium = Ukázat rovnováhu
board-war-board = Tanková válka po { $round }. kole
board-war-square = { $square }, pole hráče { $owner }
board-war-tank = { $square }, tank { $name } hráče { $owner } (typ { $type })
board-war-pickable = lze vybrat
board-war-legend-land-u = území hráče U
board-war-legend-land-d = území hráče D
board-war-legend-track = dráha tanku
board-war-legend-destroyed = zničen v minulém kole
board-war-legend-a = A střílí na 4 sousední pole úhlopříčně
board-war-legend-b = B střílí na 4 sousední pole vodorovně a svisle
board-war-legend-c = C střílí na 4 pole ob jedno vodorovně a svisle
board-war-destroyed = { $name } hráče { $owner } zničen v minulém kole
board-war-clocks = Hodiny: U { $u }, D { $d }
board-war-score = Tanky: U { $u }, D { $d } · pole: U { $tu }, D { $td }
board-war-pick-for = { $player } vybírá tank:
board-war-to-pick = Kolo { $round }: vybírá { $player }.
board-war-looking = Po { $round }. kole: pokračujte krokem vpřed.
board-war-picked = { $player } vybral (skryto, dokud nevyberou oba).
board-war-resolved = Kolo { $round }: U vybral { $u }, D vybral { $d }.
board-war-value-wins = Při nejlepší hře odsud vyhraje { $player }.
board-war-value-draw = Při nejlepší hře odsud skončí hra remízou.
board-war-value-mixed = Při nejlepší hře odsud získá U v průměru { $value } (1 výhra, 0 remíza, −1 prohra).
board-war-strategy-of = Nejlepší směs tahů hráče { $player }
board-war-event-move = tank { $tank } hráče { $player } jede { $from } → { $to }
board-war-event-blocked = tank { $tank } hráče { $player } zůstává na { $from } (na { $to } vjížděli oba)
board-war-event-destroyed = tank { $tank } hráče { $player } na { $square } zničil { $by }
board-war-event-timeout = hráči { $player } došel čas
board-cobi-help = U každého svého vozidla klikněte na vozidlo a pak na jeho cíl; palbu umístěte jejím tlačítkem; pak vydejte rozkazy. Zůstanou skryté, dokud je nevydají oba hráči.
board-cobi-place-gunfire = Umístit palbu
board-cobi-seed = Semínko shozu zásob
board-cobi-confirm = Vydat rozkazy
board-cobi-board = Tank Wars po { $round }. kole, začíná { $first }
board-cobi-vehicle = vozidlo { $id }, pancíř { $armor }, pozice karty { $slot }
board-cobi-destroyed = { $id } zničeno v minulém kole
board-cobi-artillery = žeton dělostřelectva
board-cobi-support = žeton podpory
board-cobi-gunfire = žeton palby
board-cobi-planned = palba umístěná v tomto kole
board-cobi-fired = palba minulého kola
board-cobi-destination = cíl ({ $order })
board-cobi-ordered = cíl rozkazu pro { $id }
board-cobi-orders-for = Rozkazy hráče { $player }:
board-cobi-order = { $id }: { $order } na { $to }
board-cobi-no-order = { $id }: zatím bez rozkazu
board-cobi-gunfire-placed = Palba: { $squares } (nejvýše { $max })
board-cobi-score = Vozidla: P1 { $v1 }, P2 { $v2 } · pancíř: P1 { $a1 }, P2 { $a2 } · karty podpory: P1 { $s1 }, P2 { $s2 }
board-cobi-to-order = Kolo { $round }: rozkazy vydává { $player }.
board-cobi-looking = Po { $round }. kole: pokračujte krokem vpřed.
board-cobi-given = { $player } vydal rozkazy (skryto, dokud je nevydají oba).
board-cobi-resolved = Kolo { $round } vyhodnoceno.
board-cobi-event-moved = { $vehicle } jede { $from } → { $to }
board-cobi-event-cancelled = rozkaz pro { $vehicle } na { $to } je zrušen: zůstává na { $at }
board-cobi-event-artillery-hit = { $vehicle } najel na dělostřelectvo na { $square }: pancíř −1
board-cobi-event-support-taken = { $vehicle } sebral žeton podpory na { $square } pro { $player }
board-cobi-event-gunfire-hit = palba zasáhla { $vehicle } na { $square }: pancíř −1
board-cobi-event-destroyed = { $vehicle } je zničen na { $square }
board-cobi-event-supply-drop = shoz zásob dopadl na { $square }
board-cobi-event-gunfire-placed = { $player } klade palbu na { $squares }
board-cobi-legend-p1 = vozidlo hráče P1
board-cobi-legend-p2 = vozidlo hráče P2
board-cobi-legend-slot = jeho pozice karty (pořadí, v němž jede)
board-cobi-legend-armor = jeho pancíř
board-forced-after = Po něm { $player } vynuceně vyhrává za { $plies } půltahů.
board-forced-thrown = Před ním měl { $player } vynucenou výhru za { $plies } půltahů.
board-edit = Upravit pozici
board-edit-done = Postavit upravenou pozici
board-editing = Úpravy: kliknutí na pole změní, co na něm stojí (nic, bílý tank, černý tank, bílý velitelský tank, černý velitelský tank).
board-edited = { $square }: { $piece }
board-empty = nic
board-side = Na tahu je
