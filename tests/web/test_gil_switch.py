import sys

from tuning import gil


def test_the_asgi_process_hands_the_gil_over_at_the_configured_interval():
    before = sys.getswitchinterval()
    try:
        gil.set_switch_interval(1)
        assert sys.getswitchinterval() == 0.001
        gil.set_switch_interval(0)  # 0 keeps what is set
        assert sys.getswitchinterval() == 0.001
    finally:
        sys.setswitchinterval(before)
