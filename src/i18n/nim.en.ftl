# Nim's texts: Nim is served in the service's tests only (src/api/nim.rs),
# so its catalogue is added to the languages' in tests only.

invalid-nim-pile = a pile holds at most { $max }
