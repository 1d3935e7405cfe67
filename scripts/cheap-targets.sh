# The cheap requests the HTTP benchmarks measure, shared by
# scripts/bench-http.sh and scripts/profile-requests.sh (sourced, not
# run): `cheap_targets CALLBACK` calls `CALLBACK NAME METHOD PATH [BODY]`
# for the hello-world ceiling and each target, the Tank Battle bodies on
# the start position (`apply` plays k4-k9; `ai-move` asks for depth 3 and
# seed 1, so that it is answered from the cache once warmed).
# shellcheck shell=bash

START='ctttt6/tttt7/ttt8/tt9/11/11/11/9TT/8TTT/7TTTT/6TTTTC w 0'
AI_BODY="{\"position\":\"$START\",\"limits\":{\"max_depth\":3},\"seed\":1}"

cheap_targets() {
  local add=$1
  "$add" hello POST /hello '{"name":"tank"}'
  "$add" healthz GET /healthz
  "$add" initial GET /v1/tank-battle/initial
  "$add" validate POST /v1/tank-battle/validate "{\"position\":\"$START\",\"move\":\"k4-k9\"}"
  "$add" score POST /v1/tank-battle/score "{\"position\":\"$START\"}"
  "$add" legal-moves POST /v1/tank-battle/legal-moves "{\"position\":\"$START\"}"
  "$add" apply POST /v1/tank-battle/apply "{\"position\":\"$START\",\"move\":\"k4-k9\"}"
  "$add" ai-move POST /v1/tank-battle/ai-move "$AI_BODY"
}
