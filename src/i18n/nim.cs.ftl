# Texty Nimu: Nim slouží jen v testech služby (src/api/nim.rs), takže se
# jeho katalog přidává k jazykovým jen v testech.

invalid-nim-pile = hromádka má nejvýš { $max }
