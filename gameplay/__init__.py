# No Django imports here, ever: gameplay.rules is a pure-Python engine that must import
# without Django configured (benchmarks, the rules command line, engine tests).
