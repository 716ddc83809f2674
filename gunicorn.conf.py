"""gunicorn settings that follow prefscore's own (README, "Running in production").

gunicorn by default believes X-Forwarded-Proto (and its other "secure scheme" headers)
from loopback addresses, whatever the app was told. Here it believes them exactly when
``TRUST_X_FORWARDED_PROTO`` says a TLS proxy sets them, from the addresses in
``FORWARDED_ALLOW_IPS`` (every address by default: the proxy is then the only way in),
and from nobody otherwise.
"""

import os

_TRUE = {"1", "true", "yes", "on"}

if os.environ.get("TRUST_X_FORWARDED_PROTO", "0").strip().lower() in _TRUE:
    forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "*")
    secure_scheme_headers = {"X-FORWARDED-PROTO": "https"}
else:
    forwarded_allow_ips = ""
    secure_scheme_headers: dict[str, str] = {}
