# Reproducer of an attention finding of attnfuzz, a differential fuzzer that checks
# attention implementations against a float64 reference within derived error bounds.
# It needs only PyTorch.
#
# Case: B=1 Hq=1 Hkv=1 Sq=66 Sk=64 D=16 Dv=16 bfloat16/ieee causal-bottom_right-sq>sk scale=None
#     values=normalx1 layouts q=contiguous k=contiguous v=contiguous out=contiguous
# Mask: causal, bottom-right aligned (the KV-cache convention): query i sees key j
#     iff j <= i + (Sk - Sq); so the first 2 of the 66 query rows see no key
# Property: oracle (every output within its derived error bound of the float64 reference)
# Implementation: sdpa_cudnn: torch.nn.functional.scaled_dot_product_attention, pinned to
#     SDPBackend.CUDNN_ATTENTION with torch.nn.attention.sdpa_kernel
# Found with: torch 2.11.0+cu130, triton 3.6.0, numpy 2.5.2, hypothesis 6.168.3, backend gpu,
#     gpu NVIDIA H200
# attnfuzz recorded: out: error/bound = 4.34e+35 at index (0, 0, 1, 13): got 0.328125, want 0.0,
#     |error| 0.328, bound 7.55e-37
# Exported from the dump oracle-sdpa_cudnn-20261130-060005-1364 by: attnfuzz replay DUMP
#     --export oracle-sdpa_cudnn-20261130-060005-1364.py
#
# What it shows: Passed the inputs below, the implementation returns a result (out) with
#     elements outside the error bound that attnfuzz derives for this dtype, these lengths and
#     these values.
# Expected: output within the bound; rows that see no key are 0; the inputs unchanged.
#
# Run: python3 oracle-sdpa_cudnn-20261130-060005-1364.py. Exit status 1 while the bug is present
#     (FAIL lines, then an AssertionError), 0 once it is fixed ("OK: within bound"), 2 where it
#     cannot run (no CUDA GPU for a GPU dump).

import base64
import math
import sys
import zlib

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel
from torch.nn.attention.bias import causal_lower_right

# The case, as attnfuzz drew it.
CASE = (
    "B=1 Hq=1 Hkv=1 Sq=66 Sk=64 D=16 Dv=16 bfloat16/ieee causal-bottom_right-sq>sk scale=None"
    " values=normalx1 layouts q=contiguous k=contiguous v=contiguous out=contiguous"
)
IMPLEMENTATION = "sdpa_cudnn"
CAUSAL = True
ALIGNMENT = "bottom_right"  # if CAUSAL: query i sees key j iff j <= i + (Sk - Sq)
SCALE = None  # None: the default, D ** -0.5
DTYPE = torch.bfloat16
INPUT_PRECISION = "ieee"  # "tf32": TF32 matmuls allowed
# Where the call runs: where attnfuzz found the finding (this SDPA backend is GPU-only).
DEVICE = "cuda"


# The inputs.  Each is a view into a larger buffer that holds NaN besides the view's
# elements, so a read outside the view would show as NaN in the output.  A buffer is
# its raw little-endian bytes, zlib-compressed and base64-encoded: every value comes
# back bit for bit.  inputs() below rebuilds the views with torch.as_strided.
INPUTS = {
    "q": {
        "dtype": torch.bfloat16, "shape": (1, 1, 66, 16), "stride": (1056, 1056, 16, 1),
        "offset": 0, "numel": 1056,  # 0 of them NaN
        "data": (
            "eNodVWt0jlcaRdwlTVSQloqou1aIlsF3nv0WxdLbUNQgqmWYRVynpl2tTJt8EYkQIiFMJBKThLok"
            "QxCS7332G9eKiLqlU9JiVFllUdqq1mjnrPl71jln7b2fvfezWQdxKDdqgh7QhViHaF3iG+4GI5+F"
            "EoHleB2UNjiB6Zjn3eRtZjPYnnbWpl410jAT3XDEVLEdG3ujtEIq9ThaO02dKVKKSVjGl5Aok5iN"
            "DpjNH7Eas8xcRlW8y3vSkF01B+OQZNbTz4HcyAZSoAMwGav1uMQxU0eiMZNZHCgz4U42T/ECUzDQ"
            "a6dvYFFlnb6Db3UTt2Ka7mAdQ7wuThKXYj5u6zluQIy8wOvuBs1hCAfqU+hi8hjHLMlmR++Q1rvd"
            "0NDpqB3RScZaZHtYiCJE0dVmTNIKbNSP0c/pKh47uEO5RRPMOZ1hMjiO7zNMvpfhbGbZpfNp9nam"
            "G8EB9OSrmq2h/ET7Mtwc06O8LNPdKThoFmG85f01K5iKntIHi/EBanGMc3SwKcd5SUASymUX7rgf"
            "8pxuY6I+J+HozWJGOZd0qtQih/tRZb6TANZYfeJwU7rx34xid+xFJl/RZohyHmCVGcg4hHhjXaAL"
            "UrWPzpPzOCARekZ/lVMMkuMazwLuZgk+4hp4SMByGSZNtAG2SCWz1M9GsgeRpi8fMQd73BNIxFZf"
            "EwnCioqzOsXejzDtcRgLJQ77JJc32YmZXGVvTbGMCt1DKEQM890gBHtPc7iOZQlLsY0/yyTkoT/+"
            "wk9xyM7FkyDnvPXTeMzRNs5S5HEzijHM1OsufeCmob0XJyXI4H07iVX8r1lrtV4gZYyVNMv6TWzk"
            "M14NN/BZHpQ9Woc/4jvclvtupHgawxV8jfWsET8+Y7Ebh8sCrsQQZmK7jMQmJsmT3Gv/bytR8mcz"
            "g7EI84Ltr+FcoT6ZDE9bcBh+Qg6S+bnOsdrfkBL3LqaxAPutTleYzp541+0vxyQdzZ0KKZflKLOO"
            "jdTNTJCXrTYjWO3uYC7HaDk9N1FqMFLqMVh3IZb1FnExLshv0sI5i5NmnEmQNH0daRopvVmgdyQ1"
            "AN5BhSZjEKuxHo6cwQZdjZ2mLSagNKDS3UuRR5ilTbgdd+WIFPC0/JWx/NJi345IHsQWNoHHFfKc"
            "Zf+snVw8QjnR9wCf6r9Qa6ZwGyZKLlr4nvBSEKvDZBTHopprGQ2/9UdAw9DaS4SyC5vaxMdjsSwz"
            "fjkypLHM0svsxxR3DC8jQ3cy3HkLn3M0qitXSTdt7iTJGfd7zvRBcgxtA+zgSPcwSnBEi9nS/c3c"
            "s6rmI5ftmSKlmsm5bndnNL5AgsX/IUQTWG124ksptLhjcFmr7GkyUlkn8Rotrqa5qi05SBs4sArf"
            "l5E8gVVIkBFevptGh3lweFViuICn3b0a6t22TbYX15GouZon43jUPW2nmqzrNMT7QQ5qrJnGh4EJ"
            "bOTk65/0V1Mk+Twpt1BiVbzFxfoE30dvHWXzXcVWZj472B4Kcg/b1B0cWqbL2Z9/s4ncoI8Dm212"
            "63CWv6MHjZtjdduDZl6mW6Ov2QZcz0tmoWTIaO0gwYh2TuGRTMMP+h6rpc7UyACvo/VFqJPFf1h2"
            "V7WI0dynbeUIQmSIem4e77u98DM7Y7TlMB/PM0Jq5Uks1VIMNtfMUvPYNu0a9MDX2pmwOIu0hBl4"
            "W15kOefiRSYjM7APAxDuNOQb1u35/ELmYRCymY5GHvQZdx+uyRXpa1n64ZO1+N0E46F2khdkB8uG"
            "ruQv7j9NoXTGY/kPnrIeqrSd2cz2agTWWbWGeBOxHTO5DHVQOWlO6kOtZUAHaRbDrFtbehfZw32V"
            "QWzuZcsILeANm+LnTaTaf1kOmlZYgHTdJdPsnMagubcEYZYBpbV+gHlsZZvipPpx0XrjmoaJn+st"
            "8gdSKRO0XtfYTXVFim3qX7LZ/cpmJ9GXxTmBaHbDRVbpXX0kRdjta4c37f76WC+gEdrrPLzsfWZq"
            "bOeclV5cbm7oBa3QqzylN20e2nKrLpLW3lQ9p40cv6Yw3ibiW/0Gk5nKIeiq5/WWnazBXBbZHdCU"
            "BeLI3zGdy3xJeChV2gNZ5hOuQyeLM8a+GcwtmKQ1OkOCOZnJEsJS9tLW2MmPNELeZohJNTF6HXNM"
            "HP1SiW90td2OfoTqCtmPNlhrluk99zhr/98OseaevBPYrV282VjCRcy1vRIvR6WneY99zCb+pMWy"
            "2/TWHZZvkd1Ju5kp+SbFHMdOJLKjReuTfM3mVEnDSoSiJW6bYO+Sjpc7+EV/lHDrmavSzyoWgQL3"
            "LaTwDyzjbEm3zvpKSjSD5fI/dlgRqA=="
        ),
    },
    "k": {
        "dtype": torch.bfloat16, "shape": (1, 1, 64, 16), "stride": (1024, 1024, 16, 1),
        "offset": 0, "numel": 1024,  # 0 of them NaN
        "data": (
            "eNoNlXt4z+cZxkdUIpXUJZIizqbpJE4VK/J7n/vLaGNxWJE6L3PFqbKpizqLRUSlTpWIpKWoHNgc"
            "IkLbkN/73F9TFsd2VkLXSqvKlRXN5tBVD/b+8f3n+b7H+7nvzzuMX+pBNOZHrJM0G8qm/lXzAvJ5"
            "nPlsxBiE+l9KIb6XrgjyCwg24GfZxnfMCYSjVA4gh+l4QrtzAavd97kKPjTn2Z1rbQlXyUH5XJL5"
            "Osuqn8cOjtMjbO5l2ASE8qAmaKYmskEe6VykYJzbrwU+0CYaj0RdztH8mvtkL2cyDe1ZwCNJh/gW"
            "s/nQ/kYn6RQ+MGPYmpvsXqbKe/YwRtDDcrH6TfA0m+FOoBFDsB0buRpdeUIjpFxLNMyLlwzEcIxE"
            "Id2Ee1dsmd0pu/izfKht3U7ZmG8KmCObxEpddWP/tCxArfbBAxnlh2CQHYP97m8iW+tV2SPnZL+G"
            "8gVsp9EwZki6zcMKWQ9rwvUqf6039EdprHdkLk6wPf6niVqFSVjHAPrLeL6PtnpGvsJpPtQn8RIv"
            "2I7YL9laYWpNX6xV8El/Jfqwm77qbhqFftrUb63D+KleYxsG9RO5LbmmM9rxspQktUIRa20I92gc"
            "8rBbBzNVW/hhqEYdU+xq+PIsx+t8HWgXoxPOMyAj2UHrzDQcZRvMxheMRWP/htRbZXPeNsckDYfx"
            "NRcyxt/AixrUXP1Yj3I6o/3zGq5Ledc04iyN8YfxkFbIbb2o0zRLb/NpvoFoTuJWhvCIXMZCvWTr"
            "EIUSVGi0N1nKdB66e8low1qm8IAe1Of9cjyUe7pRL+gvEO0qabKMd3Q6erIC1VoDg6mo0Tns75/V"
            "GfoP+4opZAmybQZuMzK4T7dwGU9qluvVPu1NK0MwyMTLv/hfDMMq9oDPQi6SVVLHGC+HzaSc01Gq"
            "VqJshezGWT3Oc8F8aWAf1ss2fKLLEUArXYdS5+kQm8922MIfNFM6oo12wmZcwyiN8XIxW84EStET"
            "JTIBj2UnBmKNzEMVt7gxM3kAkSywl/EWd/CUbcdyVKI3XjTHpdicRYTXnod5gKt4TAK6DK9qW3PL"
            "JSYHPWQAPnO75aOY5SxFOQpcV0vQJzBaF+AQIr2+iESh3kA8LmuDbEDQ+aTKzXybN5GKU+aw82wU"
            "69nFP+cyWSnf8bqWoM5MkV46BZekEzuYWG8nKhnGQuy3Iahw47qhCO8h04bzarDEZfaorpdMzHNr"
            "n+M4BGUMd+gSp8QMTuVebNKbyMb3gSlI4gL9O57V0yjEXd3Op/xRwf4m34z1l5pfulxnyg9Swk64"
            "784V6zX3fuIZdsAfUYNUk6HjXaa2oaOf4BLxutkghzSLO/mRJqOGm3WvxMtQRvEpNmAbl2Oz/qij"
            "cNTdeaTzRIqs41aZqtuhjPbS9Yjm6GPnmRGSLi1xjOs4xPZ1qb6kLeRb82/tiCZOn15o7beTmWY3"
            "HrIWg/Fb1AWOYgWHOuf0kyh/Ey9jGibrXvuTyZVoR7cI3sOK6hCbLI/5Z/RzyR+gUZxlirQQf3KK"
            "3EWRNvFj5Zp0QWhgFrtxoOvFRDlPkfv6plZwAtdoAbp6ZRrJV/iaDGdLZqGlvCRPq8UeFrFGrpgr"
            "qKdisY1xTFit4R7R3cxhGXt4vZnENA42KUhGe3kfLby7egHdcMvlbT5vaAI+Qx67+aHOd3F8zVHv"
            "ZXTkMyIYLteDZZLmctJWatCB7eRdx/uJ/FZjlVLMd7SYGyUbZ4PDUeDyWoRTfC7Qk3GoZleuQLnT"
            "s4lTIA9NvUVSymSc1KX6BiqCBVrtvH9PF3E/pjgvnEC+7pM8rpWbNpKNGeIlyRxkurlxzk1ViKOP"
            "sdUhgUwpxSIWS6mWMFGa+AP4st9ItmIIH6EM9bpLfx+4K45f2p9/cPQnr5lWZo1T6zu0dQ69b1/k"
            "aXnbcW8ccmFxSw6hp1ZyoglipaQ6alj8Lekh17luNMhSR99aFmOyNApUmjC/g2nFXi6tW2QJyiTC"
            "z3K0+pX/sRnt1hnLv9pkxDPPaTrUewZzOUM7SYO9ZhcH09FUOvsX5LGOZAKXy5tciQuaa3bpVPyO"
            "s+1MPNAbgUHoi45oxXPSD1WawEfs64VpFzcj1dVrEMHtXIJ/Yr17g57jMFSarRKrT7gzROhuV9sm"
            "Ve6FKJNbqOVJLMRfGOmLfqXJ8h8ZzMFyz3hUc8U25wRH7pscpNP1utbrB8iRLKZInHP8VozlCG6Q"
            "izqbx3GETbWXpnIZEm0z8410NhmOIe/Kp4iQUa7z/wc2xugw"
        ),
    },
    "v": {
        "dtype": torch.bfloat16, "shape": (1, 1, 64, 16), "stride": (1024, 1024, 16, 1),
        "offset": 0, "numel": 1024,  # 0 of them NaN
        "data": (
            "eNoNlWl0j2caxktkJEFICBHSJOgponajIs99vac6tCKhYxnLZLRT2nIcS4opZpRY8pdIIqSGNAux"
            "tCocktFJ+L/39caSqkgHCS09RC2jaFPTWoYxZp5P74fnfe7nXq7fdU/XjhKPFqwl+CJmIVLGshbl"
            "2hqb8D83FD+oD6Hez1rGPO0jr2CoxGIF3taOLGKmviEVboV+redZoSM5iPf50J8vn0omQzAas5nN"
            "H3SEvs9lzMFILsPnGIxS2YxqKUIhlpsUBPEwOkkrx2Mi2yIGrdlXn/hfc7Zymr+7mWbOYIlWMshr"
            "YPsj/9GfZCgv6j7/Rb3EFjIIH/CMTNFQRMkbjMQ2fs2vuA7/1Fg8lR4yTdagWCK8Ru7B7gQmvirF"
            "WMVw+cfwW1qv2/lMG7UvmiNZszhf2+gi19VitEQtKySX/9WX2ZIpvCN9maSdYGPobn1eQ1mYmInm"
            "fCTHOJpn3PPM1sca4BzWFyRHc9DBRtgmi925GEDyGYM4T+pQi3uymp8i3rtgHskDrUPDkTWYLGSC"
            "zfqQKWJftvHC7PuF7IC/8SB89ttG93ILunCJmCNpmMnfscRGq3dbiKCKk3hbV+gCJnMBv8K7LGcv"
            "3SF3uBOncJF1eKIB3mwOoSdt0YzzuPdIpOvoGsZJPr/gE25zfTKeg9ldb0kaK4bPRT03SSHCuIGB"
            "TMAGXYAt6MYRepqRXqnGyPc6zL51QvP1uKyXMNapT6tkKWbwHNdLg+1NFiLcDFPHJk1CJ+/XXMvm"
            "uGGyeIo9OdGFRHEe8vF3TJFtvCbJrJFmbh9M1ev8WLsiHj5cRQUO6z2sNFtxEgfQnhNQRE+HoJ04"
            "qPRnyn39xd2ozZwMzMdpBMgcfRtt+BEvYR9uag9slslIog81uoujsQihTEV+4g5EYKqdWAiy8Uxa"
            "o5228C67BezvFWiWKdUCkLNZJkvkIlNZL9f1G7yOeXxJtuIY3sU1hnmdMN7M01km1vszexmBOH/A"
            "vzWMS+Ucwp2FfFkLtRprUYxsScMw/Mpckd2ajRDkcrPVfbm5hAT1NIJfMpNl+ILTLTl/kiqGO0eR"
            "akahN5foJrS0cyvHPl2BH7ULiLcknO2x3fbmNuZrqDmreyx/SUzRpYjXtVwp1bIWDgr4WJN0KG5r"
            "tbTVJ4nVGIcNSHUNijlOmuSsZWQ/CmWRVEosV/GQTMKXZgBKWCed8YrV5wF/FsoQ5KXzmf+pdYHh"
            "PGG78Rv2Rx/koo8z0P3Fnl6QzdIbBy1js7VOX5en0omzsIc/oY5XEcdUHWgp2oAbbDSe5DHOmYlT"
            "UoE8+asbxBCZZgl5k6XYJztRL12Zpk3Md9frPdmPOYj1BnI8O6KGJ/WCGYwdtvaHslBXsb//M2yX"
            "LDjmroxAV16REu5iJA8hRrfrLM1CO+d75LsfINe00o1yV4OdSOs2Bu28Afb/Ig3WMTLVxNnat8sZ"
            "Xe5+YhZqCjP0lCzjWe7UXvzQUvVHyZEYJ9ry25PJblful+ZejqnBc2yynCYjAHvMCfteB8zVSn1g"
            "yhmDo1YOW5hu5xllXe6y9GCBJbAq4bJOx3077WlWR5VuS45iKA5ilEbL77WQRbZPITiOGE5gPy5h"
            "P8vQRAY7J9Uv8WKk2GS6IV5Pfus218t8TkuQifXs57wpn5vubgpSORH9El9SD4G6LnExx9oMuqEA"
            "4aZWP2OKDHOmYwCuyVD0R7QclzsitprOeA/vmEAuxrfca28G2X4Yd6X2xDuEnXSTxMgO7YwEjOEm"
            "N5lj9Gezg8G8LUG877ow3GgjveAc1SSWm3bWw48hXSfIegxlGg5INz51q9wyviiXZSB97GUpncn2"
            "3KUPrTu2ciZbf0vSWxyGRi6Uc2zvTMVwt618zCtWVVfwI7ZIhJ63OczQ5Qhkut1GOcNHWspvug84"
            "h4vZWpZpDx5kX+sQ11GiNe5jfIJBWoUGEy6rsZJtLSPx9t4i3tUZ9LmteEgT2IURdgsZfKeBVnkG"
            "4bxpd99km4efudiJUeYtt7elPV3ekxyrzyi3lN9INALsDErlOzi8whFM1DuMs7ukBresT3eVEvxF"
            "18Ev92xOQ9CIcQyTFs5r2G/9crB214W4Zyn1MZYN7Ox/xAL9CGNRbekvwBTecO/YqeZgm+ZpEBwp"
            "5vvmt8yQUvxLKtHaOSfFGqerGeVlsESBD7VeHmOzZeKBZtg9Ool9kOZmywhZjE1s1Dxb9VXTEc+b"
            "MrNWfG44eko377StM1rSGaxTrGcEe80cnwQ4/wcCzeJd"
        ),
    },
}

# attnfuzz's float64 oracle, computed when this script was written: the exact results
# (reference() below recomputes them plainly and must agree to 1e-9) and the bound
# on each element's error, derived from the dtype, the lengths of the sums and the
# values.  The LSE is checked if the implementation returns one.
WANT = {
    "out": {
        "dtype": torch.float64, "shape": (1, 1, 66, 16), "stride": (1056, 1056, 16, 1),
        "offset": 0, "numel": 1056,  # 0 of them NaN
        "data": (
            "eNrtl/k3ld8b94tMUQlJEirNhiYlySXJkFCUFCmVSigRZUwiIZIx8zzP8zF1Oc4xHsM5xzFPh0yR"
            "UilD6LGez/f5L577l/fa973X3vfaa1/X+/1as+b/P2uYFPy/WlUN/1dvj/6nrsz/3t9e+E+Z4//T"
            "kf++i0//p2tI/ynzy/+b/99YqeO/sevQ/9b9+b95+L/9hsCeq+OVvxENCb0/OARUO2B8t7LKutZY"
            "ILktWfseZeKmmDrJSo957JKPXciKGsFTTqIFs3ZDsHjuZb/Zhq/w87Zcm3IPCSQNaVcl/AdROL10"
            "/qfOHCTH1V9i2jPQ/TgLz0OeNij77W6nwjECpcI5T7zZyKjvLlR51H8AmnfmftX60IDslobtx0IK"
            "YOjuz2D+QxTcrr+rJNv3O3av6K9ohsyg1jO5r+vXjyGd9ZeGGDkQ8s5JaChz0nG82EguV7oQRvZM"
            "B22ZJqKaVXKE3dnvUF36XFv69AhyijWds+PognpzqunlvBFw3dbY80BvAF8oZpkRsuqQn89Q1msL"
            "DedXzG4oubVASi/fF4JZD97Uemds4/QFmTcncsVbZvD8ftFvsTYjaDoUZHJElgpczu4BDT00yHsq"
            "wOrHR4aj27VKcwMRo2MIjoI8P8FdqcD1j1YvtkRKHbi6iQFBdvyxgcwBgPifRUslDJQqTSj/e78S"
            "3qyXKX4o14vXBORdrchFUD5O4XM58QUJz6QzpmNHkKjacliJ2QEun6rDaGrj2DTvarJMG4far1cS"
            "lstmYKB4UkHlZx90Xx9NJsg0wjRJrfnu3Rm43hH99fbFPtgncVzYh3cCxvc10562T0GlsOYNg9Ak"
            "1DG6Jv/85RDczswu4E57Bl1r727cHdoJ0YyiPv8eJsoEqzjXmA3jVj5RKZ3CWZR7HFahwTuETsFO"
            "gpUHa+HxbF6dcGEX+HYYWvyeKsHwnpEs5co6vFX+2W/w8RdoRueEX9+zoMMrxqXFn4aLb4pnRWvo"
            "wNxVp3ZyvhT1Gdzt63lzsGZ9uSnzZRFq1QjVnTpBh8TerTPh1J844j6o0HtxAustJiI9k/pQ6nus"
            "41h9P4rKpWy0maCBmbX9eemJETjkN8cxvVwMsxGxbO+uUmFf7572BZ1xkOj/9kv2Tz38UUZ35b9h"
            "2KAo8/NJZx0MN5kIGYW44hqTE9Zh18kgar2Y+heqYHDwxbycfjXIeRCq6P9mcOtaNRUPtR/YrEmJ"
            "qBX6hnuGXa4bWfWhzd0oEROtahQMu1KkV16EBotXPrKGlmP4xuOcVAsitNiYSqUpDMO9LZXer0I6"
            "MWmN75X7qjR0nD6bUMxXBPcphgtbligoCi37Rni78Mf6z6/GZolglXvljRdHA0wG0PnOFPbi7pOX"
            "RatNhlHpzy3+CssZXD5GapT268UPisfYA7g8MZtrfdBEYByszVw6fDaSiG3vSn8lfvbB71ymlhwi"
            "XXBBd3HeXZMI/OZcyYUcbejCIp/MZkgFvppdrhrXa9CeGqLYG03G1ljGnqi4EhTR29ljc74CJE6l"
            "HF660IYpzku/fUSbMaKfJzcmbRQ3qp3QU04hIzPmwpOHm0rBMznAp/U0BZ6szdBTC6vAEP5/Vw8/"
            "JaH3s2qaz4YuEJZX7CYQO0Fs+96emq912LvV6NS3TgYMqldLpKd1o4tm40fbwEKcf7nfxY+zEOxI"
            "lr2HDg2jfMibV56j42hrlsZ/c9IGGshkp4xLdBSsPTSl3laD+pqpoRfG88A/pyK/ndkNyqpXxDdO"
            "d+KHg2LeC/ZkEF+nVvfJjgHvme+LHSYa4XH3z/63k0UY731gd8N8DGylkPYqe1LQYEZlzc6OeDSc"
            "2/2xvKEaWUQuXj5l/Rlns5yfEdU6kXeb7q8M7XJ4LP9b2MavD06/1p1weEDHqwq69KaGKvh7f9Ty"
            "dUEVyGnw9PKdrAb267oX3ivToWO9/6kGjnboSotCs+sj0GTXctz2BxHPyTZXpmR3gV6C9M8zsp3Y"
            "xHXwk7EgEz27/f5wL9Aw+r4R2U2NCjkSJx/WFAyjj01418aTZCA5MOtZH09g99oNJE6R1XMw5Chm"
            "HK/CCGHh78TFBhC+dyH16oVa1E6Q1E/dXwVuJwQ2ijsyICRCxdSWOQgy+vdPbFYn4Uf2HE7Z4SpU"
            "0TT6RGktw7LM0hKxP/nAeX3tvo3ddNQ1MhPSulQNgRVCjBHBCXROe8aUtejDH03tnnPZTbjMdTnO"
            "ypYKl/be3XhQg4Eif93ZieoJmLt7YUuKZhPKq6RvGOOtxI2xudfFdWrgZd1vsoJ6HfzbIHVgq1EL"
            "praRX2/MCoGRP34pQ9xDeMr2jTWXfT/S9xJ7DiR1IH8+33ItbyBy+W4JX/dxBn3GGa+EnOowRS7T"
            "4PLNViQMfpXQnqqC+n1eTzJu0vFVf6tsPSEQStoF478HtGPfKau59pJPUGIxfpnzHh3WTRYE8lvH"
            "Qx1LX73WEhn14o+10VbaUVH/cgZ5kIlzk0WTqNGFLyo1TbwrB/G8b0frTcs21A+/Sta5MI7D/U/5"
            "A5vq8J2fZ9pgdB32d/9xCA3rxmrXGKbQzSH8Ud0p7dFXDBZJPNtSCulAKqrZWuHQhQm0Lcc5pfvA"
            "ZiX9U3BCFZxTvw0JkgXgmg+bBt7kQa7OlkKWFgKijMB13NyGVb78s20Ph3Bydpjb2YmKrq/89DVF"
            "e5Da4/nRzCEH0iI5C9omCiBwXhNCJzvQqWXu0dhQJ2pEahURHRqAJDBg+HZTO+qLXZffHt+OnVvY"
            "L5cqDkCcjOHJzW/rYTdhF1vNoU5sJYRt1ScFY9amT4oHlogY5/7otROzC6Wn5aQq6MO47LAW17SS"
            "4NR48W817h/4NmbP1HpCMvg6ke6N2DIxNSes9tWrYox0fozpdsW4+Q23723bNjjyl0ew9RcDeTMK"
            "6IdPdEDePRZBrtRu2HFclVvxARU5SCmzbBsbMMn88yYGcwgFFrKuH7xKxL/r9vJqxJVCXEUYwZS/"
            "AaXvLOlbsddi16EMT7btHbjS0+9rSSmHa/3jNDH1brTlqJbWbyzDb6rGxj7JHSjEdzphOo6C9/S9"
            "1t/w7MClh/uljedIoB2g9rVhfR4QDzXW/rTqgjjPolPs5YlwlNV7XezaYlzzh+2qxIZ6nBePfzxX"
            "mAuqI30stpIU1NMdNf7gV4s2pj/32/PTsDdYJvuJ1RD+VTXI3HZ7EK2mVEeOEHrwlHqUFcePHuS+"
            "2TOotDyIS2YHCJ6yZdgesXlNogwN378YdZJ6z4BHN6Q7qUpEnLYoypd5QUedMa/pewr18MrHccbL"
            "ewDPL92xnetkos0hY6rGGB2/zvpGihSngCwjWvSxBxWH5galL1EY6CJtWlywWocqb0lpKi0tuGNu"
            "U4mBLh2fNaU5FjMrUfxO8NgozwdMfshD6q8txR2bFYb71zRD2IONpZ+KiLCY+IAl9yUdR9+wMDM5"
            "M0A8yexDg0AXrg+y301d6kI28Zc68c09KDCjxRcyUYWqWnpiQ+V9+OKpknUHUvEgh4f98IkB/N2i"
            "FTF+6zWcnMpkno4swpae9eUvE+Pxw5CNlWd2Psa4/qZ1ZNeAwNKXJIY1DYhXY9qtI2iwIyh4d8K/"
            "DLwUEBhlK0dA+3/mXOT37SjA5a2T9I+ChT6dcNgsER8aLy0UDpdgjr+I98BrGvJxZu6c8m/EVpmx"
            "iPzHn/FIsvCZdFsaWp5mcb4UGACbPinPz6iTwWhNirpSYQo6Tt52+3SZAd/ffehfMUE4bWog/Eiy"
            "Hb5ve3hf61I4ClhsmTRnIaFSrfT+0gwCLn4+uYfrRAO6f7t7fnAnAwdWCInn1lZhs6eEdmalK7yY"
            "kv6ePtMAVJlht7sBDbhxr/C/Eloysv/yqA7wbkHyu5AbPfZ06OcUkc9KGEHPf++0vC6Q4KPq8+sD"
            "ZQwI1xB+8cPcHmJnZJOmUlshhu1Y+IRdLRw9uKcklKscozp5Dz7SJ+KWwVe6mBCJXGl2268pkfCV"
            "1F2+2wNVaPGDW7TwWQuWfqsx+Pz7M9Ybp9kOS1BRPlQ5/xBrLd6jeys98PZBE8sYS8KVRPxzQHHj"
            "dhoJ18O3mi88jfD+o0G/A89q3sp8o6kiQsVpnnd+/cx2MM+6NuDbkInGd4SSjnESsfG7y75RlyHU"
            "ERl/xH85Bj9/1Isaaqdgfl93RuyPMpDvTnxz83sfbhURnT5l3ofea34bbLXsQZ5j8ak3v7SC9/Y+"
            "SWWlOgxg+csaQ2OAj1RH04LLqv+zOjkFXWlDBxYN7om+FjSeH6xwke5Aq38rQ5GNidATHVIgsdgN"
            "eg4tmcFGVeh7Z1Sea4aGMV4+4hXnO7Eo8sQVifdpIBP0vJuth4RnGMsmdwSocOFYXe+uTBpaaL2L"
            "0mgtxAej9zaLbVv1p4x77+8foEF2964csewOYIgGN3GfL0GGVxD1S2vq6n/7e4bPleEJ5+kKu5MN"
            "eHG2rr9B7t4qR9hnuCS0YYCvyrjrah6392ivCF36jGISO6Li2MJwz2Kw3r6X/ZhXlz/GRyjAMIcN"
            "vwjmcXgo4u2d2C+1kKSwN54nOhFyjBbvuj2lwjB/ae9v8244rB5T9UaEgqW3TvLvcOnAxSDZuZKt"
            "PXj/RtpsGWsVNl5lhh4zKsVQG4K03scq3DXEoibh1I7St02+VK/6EGuTudT8mQ6cdPy93XF9PIjp"
            "qpwc66hGs02pgQNcVJSIbgnvOlELpHufKdEL2agVfO3rOYlIZKj8u1oXR4fgV79KNuvmgW/y5w/7"
            "OqqQ7/cV7xS9Pli3aXfUNsrqekev/bkzWYe7XiX+EqtrQBV5v+4df9rxw4+KR0LhHZiGKVviCxDM"
            "tjwQCDOmY5LJxbV8zyhgv4XwcjG/CEd/2F5ziyeDmP1iSPiJcvz5K5LzMBsdDmq7H9X4RgHH+8OG"
            "+pqf0C9peee+HZ3oel9QX/0aA5smnleyXXXFbzSHQYmRfBDctPOJzl0SWmdN7zCN6EE3WWm37c3V"
            "yPfNb1fzjXh88Dfuh5xgF7Y0iPYtFfcBzwLL6z2lBGCeCQ4NPEDFRNqCl0B/CTQvnTJ/wdIIpo6n"
            "X6JFFrjauXw/f5GBC8fVpvOri5DKwafASvdH7uufs4SiirGs0N/8uQADxtbcur/bORZuEEYcTp7s"
            "wrsSt47W0UmI/34ZLXmscsrDKf0n3/ow4e9Zu23P6RCgckGns6EQ5c7iBbUYIvIONDfNVDfiIf6f"
            "FyOYnbCxykpj6kAznHHma68PqEeW85t4R0gVcHJv2jPHhWLgHCFNBXZ6oe3RvlLqpXZQ8PqwXH47"
            "Fq5EjFp0fyfjk3fz9+bMKiCDxlbz0r0FOI88jchOSEbListuZW0DoJ8TZXXLqgbWH2Y/xH+AAaE3"
            "CNa3EmMh3MUhuLK5CZJsArkDX7UAGPRmyM+TUaKkg0XwFhVfXHc/wnBsQDfeaSXlV2TcGacS112M"
            "aJD4mBJxPh9yUinJT0LJmJbRUhq2LhHuCLFr5ocP4uUM+R96aTPo7jKXoX28BE11A1KNOfKB13ii"
            "V6TzIwptv5xzhNy0WieyP8WtkmF8/3aaBFsTKEdznm/4WIR3Ej2K8zhSYcfaDDnd322wRiPz6as7"
            "Cdi0/DInntQIwhqOG/w/1qPMuEADLlQgKb9jqzl/GKh6z5WpuHzCynVH681Iq3nH71kDS2ULPMq/"
            "fXPFswad4ibzl+9RQPqJpdTFqDbsFZWQ1DLtgkdG/G9UF6nwYC4963zGKv9VOVldfkjAlyC0JVTE"
            "CzeJCeW0G+TCoTCe5JKwFCAWfro/t5qnebvf9z12SgUVyZWzupKDKD3LID1iycdZEUNVvDWIl8J+"
            "qAgSC8HiTYbkpahUmNpxis9YMBMFz9iLZHwhYSHJMnw4oQWO1D2Y7tOgQM28o1r3EhXrb1cM++yj"
            "ogF7Vg3teCrCIZdTAapNmK68i1PodhnEiK5h7F5azdVm52J9+mk49NXyelVuFBgttD8/n83EZ1v5"
            "haVGWjC/YcnYfrgNbI7cVLTqq0Dez7eNG5T94Jaj/hlyKRX5ExQlueWfgzuH7PuLUWQYV9v01Hai"
            "CU9q6C7xe9ahxtZNGrsPjoJ/0IjVUT0iKCQUyt4N6gK3gaO39j4rQ9WyT9Xzl4Ww7hyU1ZE8UTOk"
            "K45blQp7VLD4H/dnVDpaLyltVAU909MKK8d6ka1eKUFQdQL277lPcYzrwY82efB0YQSerp0jrSmq"
            "xWMEikrcQAcE6dvq5Tbl4p2ccs+qnf1o+Y6s+7KZCqbVJmV2+WO4ZWjKbfZWHZbTpJ77GzFRJTa6"
            "tVlnEGVvpV29ZEgHMx1s2TeaCSJRwQ9LeobgxkutmdaTIZhZVy1YeTEOPJKt1++eLIcLpQK2pAEm"
            "ZMvc32+h6Ab2jwICf8gF4t/DhVf4+Qth/zHNt7MuHyEy59y80QkyJJj0h5Ya06DgzPIex+BY1H7/"
            "NE1nvB51Hu9LWUhvx6/nL5g732xB5o0B6snoIQxzfK/S9IgCqUbJY8lm2ZgTuCI/o9KADfpvw57e"
            "qcEdqT+8dNWpkG4rGteVXIRMsTMK3JUUHDyWNU/8RUS2Kr3HhMBGEE8e9kqWqMOQI6aFm3sSwc9Y"
            "Gqp/5ALP6JjWWc1MvMbJI5Qz34yyL4TU/wqnIIE1rCzs+QhqJH21lPJLQkpbWXp+VCCGhnaxE03z"
            "QfRlVieu+s9K/p79LeQ0cPNhdfu8oxZ2f6gz9lGrA/1z38JeeqzW+dXQ50SRepB/xfpOeNXf9TO6"
            "06w35aOWjemRQ/9iseDg9qmNygz0+9R4YP+uIix48m/X6ZAWILCu+/xCm4IfpQ09Xt0lQX7Bugjl"
            "biUg8+zcIF3XDR32xGuD+/LgCPeIabTwKv/2uNPG/pBx1vtFScsjMnr4aa4EptJQHgdeuB1LxUWb"
            "2tS7kRR4kD8xPdfZiI/Exm9016SAW82RtM9mFag7X6T25sY7PGnaoLytgoohYZ7Fuqt+WPjXaPu+"
            "7gKI9XoaFMRGw5WC5yMO6XXQ/fhKC3J1opZj0hHzdST4Pe3xS9OkE5TWqPCmUElYf25juolXOogc"
            "CD9jpF0A0co6662vJUHKi4kn4iM1+OHXeImmViGu3fhVm3MnHeGSr7CJMxWHrae2mPSUosXgebtv"
            "/VQk6VkQGwLq4bl514Xa7XlovED1891GhhBTitchlzZE1zSzmk814B4u8F6QlQS7omRPHvEhgNof"
            "7zDpNYWoeSjk34e6EJh4V835fbwILwwauY7upGLsnjiffG4GTO28WMq7OR39siWDyPk0zCVwnd7J"
            "kQFd6VyVkzeoGDf4t4Nnqh0qpAyV9B4tKhpSHD048/Pw/GnTsjtsFKzkF9U8q1wCRd91/x2p64CQ"
            "5arlRIsaXGY/sf/zpxoUcb6aSlnlucLmIu99XSQ04nDZJb4pF6K1GepsxHwMd39WFM6koHxnvlSL"
            "IQFd07dVNstEw8F3is7W92LQ7pSdNkGtFB1eTU1W65FwUfz2V+YAA7TYOZ9cuV6I9JuHH3zhTsfo"
            "yhWNlhtd0L+v/jyNVgSHmTsLVX+0o4s550BTPRmMlf6eeN9CxpSghb6eoD4cUh9uL5IpBvNTrLvk"
            "yLU4220tf1GyDy/40ySF2j7B4I7uY5tSG3ELgavm7DIB4sSlXn7lrUbDvIr1x15XQbzb/YVbv+qB"
            "tdbqOb80HU4Fjn9zkiHgvqtx5JWztfDcccjsWDMFnawt1A8aluP1tfYixPQKjHSvtWUfTgE7PesB"
            "HiUdvFFWqZV4uB7LzNrM/ZPG0ID1QmCRjB0eJMWGLQdWoW14dmjimTzYtzvg/hP2AfRn6z5c/CYD"
            "BJ2VmudTukBxEGZWrDthc+7n7r9vW9Fjzp/cUzUO/gooWkPKxKNCMQbrElLBXrzTnTujGk/n9Q/f"
            "MKfDrUnvOh/PLvy4wfPiRBUJbelf/vXaDyLvAtP3r384nn3z58W/9EEskrgsyrlAxNAzYuyux6nY"
            "alfxjn6xFOMnWuY9+Huhb01M9Le5z8CcDwt6/SEf9hizd2vu74HX5tGPPLgvA+PGYfnQw/F4aMZv"
            "3PufL+5TcqC0DpPhoEcYxSaWAH/s72wtCijD+LdzTXv96Cig0P6b/3UPNtNL71wZ78LeWHLbjq0k"
            "6Bo+2hiwkIdnDCiSCtfbcKQ874bbp1Wec6a/bHiZgyG8D7/2zaZCsKzKqXh/Z0wsWn63oSQa5deO"
            "VHwxKAdbhbU2dhZt6Ll5M8vXpiTMfnNw3vv3at8zwbJIyzJM9zpl2iPIwATi0H3pzAIQnn6w8vZN"
            "Ow48HjLZ9hexfZAu4+Vcj39mnDncoB10tOU8tRRb4Wi3w8rxujY4IXXFIFrhE9xStSqu6a6EiUW0"
            "czQtwJaJC0sfT4diOSXjdIxYEb49F5Uu7U7F1y8GKlqf+4ODybpiLWsC+qhPbuRLrcdZg4CLzJlq"
            "LAne06DgS0OH2nuujL5s6PBqb6E/q8LCH6E7c2MToIa9flueVBNG8BtIEgQtUOjL5Wz/ne3AkjPn"
            "v8X5Bcp/0N0949+CmUbhoq5xlWCqoXhCzrsS7dyoCr70WuzRE3v37FYDunqc3so1QUT3xHWfXswx"
            "cJMXM3d+DQVkzPX6wlb7qYFFyPb5jlIQbvA5eCUvE6fOve33+lcJrWZTCgQDKsTBx8Zgpz4IrBQM"
            "+3WkE9ZJZ08bp9Ohltxm+cI8EjpUdWedCovQePR9btfbZCRuSGx95FuJPEtTM+tP16DCjnMetHUl"
            "uO3J92d7K4jY2sAe8YiXCXcijcysV7lcrP12nupEMcrKsLpuf1yH3MFXkkcMGVCyR6U3wLQRRxqi"
            "a/d3kUDV0qd/rXoXPIkY61BdeA1KomzbFv3voONfAW0RlwIUmOLov7nHHT/+FD/rZlQE2n38WxL0"
            "s9Fnx3COz0I+dn1hPXoOhpFd+bZh0AkycjuV0q9xjGNZh4LVrm+pWGjZR+jNS8EaAcrs2PpGZIn9"
            "pfdGux4ePE5kSKs0QGmq4gF7wSB8uLKOI0ipAbmOCuY4Ozbi5P5ET/3iAlA6eWL3DZ4ulHgWK27l"
            "n4dBJ/MK37i7AKfLEstzJg2FqYyFr7sYKOx48Erk6SLs/sAhnnK4BmdkL+TvfVqKR9XWflDcWoy3"
            "jEu2T1eXgscpn/mawQY4rDjH2CXPAM3yraIsF3phrtfJPqe4HA7WczFHihqBJVvj0oxKDYjVbtTz"
            "EiTiddMfcU+/NQOVlyXtGSKqP9mZl/K2HrMM9+UR9rXjxmDeDrnV++ww8ntNtdUqpy0+OR7vmYeS"
            "6+jbVSMigEU60JFrmQ5JWQqsh1Q64O6X5BL3yDbQXnz41FbtE3BrC/GWbg4C12COlV+mhaikWKqo"
            "T4jDFJ2v3U2vEXPbNmRZ9xWATSnBpfRxMXJ0MEtcE8vRrI9iO0Jswyg/+XYecgXmBIyErb3UgpW+"
            "2l8DXNIw7nQRXc42H43ZBYPTy0qgS+ngq4tLt0Fb6u47bt4kKLn1sLbleBO0rTWsGR+lQIiy9WVW"
            "+3yMJDFTEtSLITv18swgXwGOFEdJayxVwctH7Fu/6+TBZ//eDPvFCjw/aTVhiF2YORxg0c5E9FX0"
            "+M6RyEBZO/rrt09zsEgvv+DOw3ac2Jk30/EzD8LLs68+UKiD+NecEcHXisHuB1vG3T4i3Oc8/2Uh"
            "lgbql6uTHl89g+Ybj6wVGquF4k2abCVnKpErsjWj2b0OrMsvTD5WTkGP7HLZySdvYTBKiPOUFwPP"
            "FtzssRkrgfK/KQqP1QaROXGmTGW0FEebikwVtpZj+ZCB0jFOGtSElglvM0qCtWoW60h3WsDhxDWT"
            "M6QSyBh7075ulR+VtpdUcg+WY63voZYzfQU4Pip6doaNiBcHtysaOVfiryMmN7d+7cLxsQLFSM4G"
            "JP5V30o50IvV209LObD2w1HZwChJrRTs8Op61MeSjiEZVW9CjQm4zV6RGuacBe2Bb8R6bMOQ0Nl4"
            "NUCQBCkZeV0zugMw71OU/XFHB9QG33nML1kK5EzZsKH1CVA7q8r9/HAm9PiVXhpQbcHxM+5rUyxj"
            "oV73dZGNfiXqKK/PE+nrxqiuMIHb/mWornU+QsajFk0W1Ht2iObBHe3Cs72p7VgveDt+vMcL391z"
            "kdmzpRlcPiyT1CxXeS4ly1x4ew62S6neuLYwCAO2cbHnDxchlxs9/WIUCeacOD2MhRJx1ifG+f6W"
            "Onj+YNTtwWo/6bLQO6r9vgQ3KDXPSs61Ydv7UStnnjowGPRpnJMoRNHw/spf1jZYPXv95sxiFer9"
            "67mLg1SoUDosILaBiO1V/PqB7zrgm8bkH7kLRPgmSlwMkWoCM7nY2He9ZXBRr3Lbo+VCuEEfAb3n"
            "iBfj2F83pRNRPltRZ5NHEQhtjhSKzCvFTcEiTSLPK1EouGrwdGww7nl0V6pxpA/xdOgrvs35KMn+"
            "MZEkR8QNEj/POq+0wovb/uziO2rxzLKxKMfpcnBNLxnjVW2CrJHXgQpP3qNm4K4XK9IJyC6zV1Lt"
            "RQc4+4nHGUgTcXHLVctpaT/4P4SjA90="
        ),
    },
    "lse": {
        "dtype": torch.float64, "shape": (1, 1, 66), "stride": (66, 66, 1),
        "offset": 0, "numel": 66,  # 0 of them NaN
        "data": (
            "eNoBEALv/QAAAAAAAPD/AAAAAAAA8P8AAACARLHkv9x38xB3vfg/2PuvdzPt6D8dMZyJF0cHQBn3"
            "+4bXI/s/7F+pOeoyAkCL2aLHqvT8PwTeyYpX2AZAGrlgt5vEBEBKbLMpByAEQLQvQRqiwQNAkPD3"
            "KBm9BUCudMsAQUIJQKhMmw6lSQZAOuE9r/shCEAuM0HQKtYHQMk2LZ7UwAhAgcNuNX3YDEAowBTV"
            "H4EJQNKOQ/JaBQ5AnOtVjNWrCUDsegF/qqIKQIyM8bzG6AlAlnAP2Wy/C0DC3LEExy8NQApQYafg"
            "/w1A/0S7Mio0CkDVf10ytwkNQE4P9uQDIg9APkORCSAzD0CccPjdszkPQHMKZRyZGQ5AfiD1fgR0"
            "DkAcEf+M11oRQFstio4W6Q5AnxnUOUDrEEAfgCRWoMwRQPucktKGzhFATFZ2OChaEUDprQegzvsQ"
            "QFJbBNNDWRFAGo3Z/LGHEEA4pqcOqBISQEnwO3WCBhBAIzUvgctjEEDqruEn9JAQQPyKead0HBJA"
            "b70UbI+zEUAoW5zRU14UQHKLf9Tf5hJA8h3zZE2NEUAiKl5x7qEQQCy58c3ovBFAyhzMMzIREkDi"
            "6zqcogwVQNz0w1O+KhJADaMFoa16EUAWqzaHzQsRQJrSMlWjpBFAwMQNUP/FEUDqRhdlZY4SQHDy"
            "1hyE+BFARq2TrF5EEkB3XuQdUCQRQLTm2zY="
        ),
    },
}
RESULT_DTYPE = {"out": torch.bfloat16, "lse": torch.float32}
BOUND = {
    "out": {
        "dtype": torch.float64, "shape": (1, 1, 66, 16), "stride": (1056, 1056, 16, 1),
        "offset": 0, "numel": 1056,  # 0 of them NaN
        "data": (
            "eNrll/c7ln/cxq2oKCppWFGRBhpGQycispVRUdbt3nvYZFVKREpFZTRJUSgkaakvEhWRkUplFKGI"
            "jOd6fnn+ieen+7iO4z4+1+d6j/N8nWJiYmKmClxjsf+nv7ucms73yHriQjv74rH23fhddM8kL0oE"
            "kViG8dR5LsQD7/mOHT2GbYlNwgszgnC3XOn8ZzERfm4jF3+yD0d5SwWnX3UPzDluMk9nhvzf/6nX"
            "61Tn+JHx91dHVHI6D4wvIz5DYdFYM4vhpTzLCYt/6rqMtPKwdnDo73qRDxJF2Qo//cmou9pfNdnC"
            "xbs758TYu7hIumTT4nkjDpvIudfulQnRf+qIf9xJHkivX5VJGYQhIiptqdvIHvynLeLsdBaiOtah"
            "6y33KK6ezjn0OJUE3zrJ5a0RDOQfmO/+pCMMWyvXSwxruKDSdWRo2wM2IrWaAmsK96FrznKnxZc8"
            "kfKbfv6tKRdLIydPXbl/CFvDxtUe50XCZmw267x2AJjaQZqDkiRUbY5gtx8PRtMSq76iGCtEFZxS"
            "//mcjHeSuhF1jEN4d0qhaaGbEPyBw00fXrDwQiK/KKEgBAW8tInToWycXzalsDuGhaAojbsL9XwQ"
            "IVfve2a3P7Smylj6iwPBd/lQ9CgrGMl352Wd2hyNnTmnNz1OFqJ502ljKR4da8Mfk9ReBWDQY4aR"
            "SN4VW6O/Ru8sokDumSr1t1Y0/ibl38o1Y2FUrGtC/QILtqozdipRgtE/srm9ScMfFWoNtxUOUmAo"
            "9rzhvhcDNytHGkJOHkTV5DO1+MOhWCTtbOnGCsXV27e/17ODoGhra+BPC8TLqbrR9H3BUCM7HNpc"
            "Fo3G3K1zJ225MPwmOtng4Yv9FzsTFhyNhJwkvbuH6O+39WOdS1nhsLbS01DdeQis0dauD9U7sXnN"
            "Tf+LNQI84LVu1bb2gd7JZ/slqlmoWLdg4e2KINALI76Za4dhZmWYsb/1YUR+fGbIWMWD3fvc9GMF"
            "ZKhI0JY6yYmg5Ps194X/Ptx2TimUMaXgTRePtuhtMM439h6K92Di8fbRComVfCiVb2J0RvNw6WWm"
            "Xt57Txzf772OZUbCNv2dlsUiMpp4eWc/7mRgb/J4UPP5GJBCRtds8YiA0IbyTH9RKGZ/FAr1zDko"
            "3RgY2KzIgq6zuHxZUiju/uzps4/wg7VB6IXFdDIu1DoZbVUPgkX6sIFCDB2efIruBQkeNM637y3e"
            "xUPfW0XJ2dp70P86JP2AFQ2x9HnTq1hknBs7e8BAmoLW4OyFf1ZHQ2p4ichkTgyGT853mbCLxOKc"
            "PfSEhSyMMMlWK239kZoWY6vPFWD98EuPqlIP/M6oTy1V9sP6+68nkwr4qPqvRMY9kYu/nlYn3hnz"
            "8WFff6f6WSYufPX5MDBKgYHb6u+9x3mQX3Z+rctPf3RGqBrR06lYtcn7ir6tEEMiZ9ZDbjhI8/Mq"
            "jfWjYLNJrC9Dh42A4uEcN4EvDKlOzTp3uBg/F7tCOomERx6fE9L+88ZRaytJwzQeejnhs5psuJDq"
            "tL47/x8fsv6j555/YCFbNafWRswPmSub5rrJ0zFL07TafaUfUpcObB9Jo8B35VGl7Gku/ksL+zO5"
            "UIAqM/akXnMIwjb1ue9zoYPna7L7iQEJVvFTZbRiHkz7rqofVyDh9Ny6kCeaZARZtN09XM+D17uw"
            "Wo1PAoSOTz+QCWOD6ut5zPYXF/2064xtD1gwSa2IpCeTISv2vmN8wgcfBnRDfMeCoNDTbki/EgZx"
            "7YsKiat5OBIq4d5QzUfmsQ0p9iDBzMTJ7vBNEj5Kv26plQ2Cvnad54wqPlZmFIp23PVD0QuXexYF"
            "dBiN9D5fbcnCgafvA1Re0ZHl7Nu2+gwDzNBoinAZCW59ydr2lhRUGp/efVHkjWbeS61B13A4f5Dp"
            "/mBK6JLAmf55Jg/Lzv6nWOIXDsPGgtHSRTQMaKT4h0T5YtG4tmbRFibapncpBE1xwX9QVso+SsWW"
            "iwpqUYoMPLqx2H+9dhDOh/n2CMvIeKzr+TpWko8fgR1cTQMGth2g/rq1OwAbTPir4/oYaMu3nfvv"
            "LA/JEj1Ny32C4HNIp1xTnQ8niYA5xwYi8NlVy2FoPR0uVdJGu0g0VK27EvbSi4fEn/ZPEnay0ZH+"
            "nx2LmH91seCJ6K8cKP5TnJh7mPALC6UtOrO58OabZZbOoUNH90qPsutByD3ujgiY54uuxOfNjJlE"
            "fWesUFytTkPzrasDPeYhuOkWH7fgnxBFtr+3JhP9rDcY/upVwcbgmkNRDBsG1u8p1RDWUFE0llqr"
            "mMCAccGldw2RftjyZNvazzl+8HguuiP0ZmH51MdkIwse9tmovzqcSEbOLc/urP0BMIp92/5uDR/H"
            "i+oE9ju4yF2Z+pDN4EBiiY+jAikKJ8+rtRfP4OJGSa188S0uNrUtXe2vTcE6Hb9Xa+1ouKW6/ckG"
            "LxZIDPkjf0c4kA4SLrPc5YeqsN2ZxTcp+FFjvMfW0x9V9hlXzxYzYCrXYXehQwDh5T/HlLsEiJfg"
            "R84k6iIRcP9ov5UQvP2txZL/uBBKVbh83BiC36Pu9Q5yXFis2Wyq/0SE5fJzNy1ew8PZgkzx/sIg"
            "YO0t/RBrCm44NutvTeXBY90tx1FXPtZq5Bte0ODhgl6A0UqRANFHq0wHvPg4msns/zLIxgv7XQ9P"
            "OfhhdozzLsdSDrYEr+msDxQiU6XSa951HipnhZ7OV+Cjt4F2Xl2ehyU+lmXiTQJ4L6OzRk5w8PKd"
            "W97Kai64Yl/2JaqwQPG4cSfCjw+p2Gidd3Y8yAwXuhVf5KNEwIvaS7x3kYUmxfVuINYv+DqbQdRz"
            "zvIbx0OvkCDV4FskkONDJrnvtuX8AHho7q81Xc4D393QNpUdje1m19Y+ekNDmujcseThYGRq+rY7"
            "nD6AFUOXUxRs/bCZ3hWxu1yASdb7+9IPeUip2tCpTujzSdzaaZrCR9xU3x2pWirMvTanHU7m4o/Q"
            "05YzTPhXBY1ED/XDue3u61QTfGD+92GHrz0dYXOcJpPKOXBU/t1UQeh0bP5X7+43LDROv4zUjhNB"
            "4/I7HX0LMsZt6fI2V/gQi29w8BMX4OIiu9ID0SI82F6ak/mahhyvsUy5UF8s0POTeTsuxK6GYOVc"
            "MSZ2Z3Qd77pHRxmLHd0Y5IcY6TlvxJso+Fvk1a+xhIad/TXXxKl0pBouMH0sw4LKGorLuisheD8j"
            "KFrLJQjeTe9Wng/hoaMw5FI6odvcHH/NmXYByLx7dcwqlIQww1Qjv5Ms8CveXe+Up0HNT+Uh7bEA"
            "+8bfOiw4JkAp2ZL39CkP5FQvhx2EHxpbyH/6/EiEggvf2ymVHFgfWmJTHkFBdMnMW6Z5TNTNnXdk"
            "tbUIP46X6m4/G4Q3mcadP1ToCNjqrLHtOxMzb7alxObQIRqO7+vToCGD3XKgXoyGHedqZOjvWOi0"
            "uR13p47QrwqdWc4CIVppOfKznZjoecSUXbSOh+w06iI7Oz523t7U/5Wo470X1JOmuQyErYs6NtuH"
            "D9O8seqmaC4ODu2/NmEVhE/Xbt/O2kDC7W8FU8cu+6Gu/uM6lwAKdLLOriksp0DT51nEJzUm6l2y"
            "EiqpDJTVPje54SyAoyU2+vVRsHijkjTTn42cf/YzVlVwMRL7siAwjg07DmN94z4GVPjhdSZb6dj2"
            "K5SWNEbHjMMXndNH+EjsUZ65qjQEvQwnM+ELKs4ZhauY/POFmdxlW4cQJv5JVRamJbJh/8dP9Ju4"
            "r/PwvyX7p5mYmrU2v3APH0+dN9qqNTGx+JlOr0oN4X/HFS411/vjYF3uOuVpFr5/r9X4FSPEu/+0"
            "X+wZI8ND76SF3ogvdreWdfZL83GMqWx7vkUIx/gssckKEoIztMlbzXiYGpU2ejpfCLX3t+R/Hg+H"
            "z8j7BavrKBi1Ev5if2aj17xmV90nMq7N3Zx/OkwA7dxZ3zU1WWgKWTtctZgJicWRP35JMRHf4ZYc"
            "dY+GQVKBpfEvFoJJ44ZmBlTcndM/I/eMCL9IedrXFoRCea9kzlsPNsIu373usZyBgBfnLDzXUzG+"
            "iNHyMcUXq26aiz9NpOFl4H8Wtlk0rC82N7ZwCMBUbMu1w7v4eP7bvHePmRDFB2qkjKrIOBHzZW9j"
            "IwN2tzS52+pEiGw7mqNoTYW02N9HVzoIbiQV3DVQ5EGL+uW0dX4Qfhn3nggZ4oMk/zL/r5IA2bG2"
            "4uc/sWE9R/Dj3ioqBh4nDpbMYUOBM7hr9jkOshOFhudOBmKVEaPm2w0WQoaMB08QuvSqO3UvmeCd"
            "D3v9uKYKQfijTDlZuJMFmlnnjLIpHuY3S3uc6Obh4PnyXXqRNOzesEFkPY+HCMv9iWGfeFgf9+mX"
            "sRUHHQsSnE2j6Ih+bn6itZ6J2UOROT3ziLx0X4PeX89FrU5z6sksFlwme2fzNJh4EvhevamRg/lH"
            "twze6+diQ/pgrJK2PwxGlS5IbePi+4JyXaoWC6l21mlbaaFwiRhb11lNw/M8XduSW0EY+tf+nZ5H"
            "Qtbai2+8O/ywtEvRyKKEiV9Bx7QFwxScsvnePruDgSnn2ErHKB7898yyy3JmwfFlZ+N0owDdtQMr"
            "Xq4SoUlNKLDiMkApPCJv4USHm2W6MNqdA7dXOivPzyW4SfypZORLDmJ3xj6W6RRBPn6j0J3gR+Gy"
            "zJ6a5SzYyZ9d7Ur49YTk44FlYxycvV60JWo5oTfXqVbnfvjhedSWScl7hI5G+zQ5vuBAnqG7piGY"
            "h0gHveKhHyJ4SUavnzNIhuuOrOuXd/Oxrf66SvYQA1tkI/fJzRRi8XhjyhtlEegWqut7hhnIsrok"
            "Y+AkJHisu88ogwWPEUFqbQkV/2nc+czcQ/BcjWQb1Yyog/wBc34XE9zCA4mSi/5Xh6Wq5Ay4UJJ/"
            "tqG4lofdMs1WWaeFaJjnXv2w0g+7LVJUirKpeEZeWBBB3DdCVlqWFyLCPSPVmXN6aTheWfyliuCF"
            "NsarGU/rBVhxqWrH0+cCXHL62UibYmJcJrSDVkzwaXjFt5ARKpbuiFyuQKHiW+/Q3nwBwXkbXq/9"
            "TOMjevLBl3JfOhyyfsgetyGDLCVW8K2PDa1t+j4JhM8w25bPemBJQ7nOkRnDbTzcu7/+jd03wg+m"
            "7us9t6DjRmzYD5n/gnFqmtGdp8xFA3eb/hEOFWpaY1bsdVxMKm26l7OHg6HjmXudxghf2iv2/PMP"
            "JtLpnn6jtwk/PBJyd6yEAUX2K2WKIx3BnYMLZieRoRNXeuOTFh/qXcfJQ/MY2Ney5vKxBg7a53lH"
            "dlcwoa3Uat1nyYXnnYWqdy/TMRT0p6h+RID92mtuXY0juH7JzPbK70J4U19ErGDxIKniK6Z4hsjv"
            "3Yua/kQxkGKQULP2IRM3dOyUwok6KAWeZNZIcJD0U+zh3uV8MDbeS0g7QcOPM6UZA5dZ8Ndc+e11"
            "BBWtq0YslrX54Haozs+e1kDILVjo6JQUg+4ZhS7u1/yx7vPnvDOaJPx2vf/AgNg/38QboV+I+28M"
            "aQqf852OxIMjKb+vsdHEaigTXWUhb7jn1WMbCjTyPxVdSSLyV0pM5uvPvpjuOrBF8wgLEhtckysH"
            "OJg4ujetaS8Nr1ZrPKmUJsN+KVc3ltCTQUbsidmrArEo8+hcMpFnuJHZR3bOZEF5X7y6biQfOe3h"
            "Oep/eCjNaJ8ZsYEPe5sV5esucJA5eK4g25wP7nuJxacnaBh/9sZ4FZ+Ft1P509Yif7h27cyJ7Cej"
            "dtHNXksGCw0j9hvP7CIj0uP+6OUIIbha8gd8U4jveD0Y8TIwCH8Xun2L1vHHk89TW/81UtA8hyce"
            "ocdBVSNfryGTDLVmlSc9xzlwXlaz7boPFUZ9JrN1/AleKLD5mUZw0bU37RLfVRi419ny+KAZG4vO"
            "yJxdNZeFu+7Vvf1Ef+6fkuniEbnB1DFsta8/GVVJ1ww7u4MQqZ/nO1QsxOy1mg9Kv/Dw5xvpyPUH"
            "ZCxYIe7/gOjvBieNCKndNHgmFnvet/BFq3FYq99LGjKtinWpqnzQ36xJ95NnovuCQ/Ps3hB4SCy0"
            "0CD6nKI2XhEjI8Tn7vlBr1tJWP9jwGCztz8e5lcaUy97gmJitrrXm+DKpV2DNqeCseBIaqX/XAay"
            "y56LC18J8ffIlvxJrXD8df2kywgMhElEWK5SZQh60nTSFuYT/Sk/1lg7S4QSjxDzCG02ln4s7J2Q"
            "CIROfUVfKJGLg9w6DhcjDKntLx+4ybCROXozXDI7EBcl9wfyTAXwcM14IE7mwmllfFJ1GAvbJyVV"
            "DGtEeH/mZ6LKMyaEonI7i1QW0pKk3Bc5UuH2vu7hAgURorcbD4w6M/DuRW1zLsFzL0bRyIgmYehQ"
            "RNXtlVTcihY/VTDFga7X79FY4lzObLW+0XTCt355JhjsI7jvfYu+YicbM5cxl+iQ+PhrZlthKxaM"
            "lCLmeR0nGrZbmJzst6TikIuCYzyxR6Qtc7KXbqCDan1hxvZZHOTx6nySPEhYtgLBj5Zw8Nz75bjE"
            "JTpk9ZaJthzgYMXuZDY1nIUNvV/kbhI5Jtg8aTJUmg3GW1lPX3safNPyV7YSXPMxRcU1sYCHzdta"
            "+vMtQnB2PjdGvpKMm8f2VF0WkZHqahZnpsjEYMbd4NFkGpYH/cv7GUnFUEfivgXBNCg0H4yO1+aj"
            "Snrq33JZBpTOfD6WfZyo467Psx7YM6F4a2CZUjgZcdfP7rTvIKMwy7tr8xMulnnNS1Ym9mH+F7VY"
            "/SscbAv3SR8Z4SGO5BDjH0OHXF+f+vdsLswzBItzXYToD2rSaSGePzTc+cv14eBZyo3XB0cZMJfL"
            "fSbnw8C0n1XntQM8KLePvdxJ7IfP44JqQSwX+XZmc0hGfCQ//VuygtirA4sjUl9Y+0KltWF0u5gf"
            "3gymTMT38LCzN0FOdqEQCo9KWLFyVBw3o3YKCP/OFVzXDSZyz8+J7b5aBnx8W6oxakP4SNam9xSZ"
            "KQE2DrtWb0nnwDPf/vRIHQ0u045ZmlTCP78vZs/xoKLAd+NSOpWNiezLLYEnKVhaWOCZx2DD94iH"
            "vudtNmIYIvNz21nIVah6mughRHu+b4nzKQaWH9QpDXdm48Sjp3f+/uKgaHmgePh6ATSND6h8JjNR"
            "234X5TsJ/fWI6Q7SYEEwtqOnuZeCX7R/gUf+MaBp19TffIqOpgjjFzOTuCgr6bl4RVmA04M7HCvW"
            "kGCbvz3TPJADe9rL+1u1iFywsMHkcr8QXmPFnXdEPCTkOKmt7KKgdGuMfNtZJgz53e0Gygz4LPKM"
            "PsggOJuCWF1vwjeeJ386OsrBr9avY023WTh5wVJHvp+ClofGHy/LMZE0zPxMYtNwLvyxTWItA9V3"
            "8pvUiPtdlTQKm7WP8HcHsWyqHxs2w1r3y6UFKOYeOjMwSYWG7cSYF5+HH+tOFtYP8KAt7Rinqs+F"
            "ybzaK7b1dNi2nbELJPixhCQ7nl7Dxb6DnqZL00WIE1ntS/zGgfmy6Izn1UwwDBnaeb9EEFxs/ed2"
            "mMjrubNWuE/S0f3aWoF+RYQ1z9wbzGbysNVXvG/4BA+byFavMjeSkDa5mrVqFRuKDzpDqo4Re/fW"
            "KLMzhI1fPyykD2Zy4BqY+bs2n+Crt1YWoh8CfEmvzkpNZUCuqYEReZmCuViwPtGWhU+C2k3Wr6mI"
            "6VOV+VTqh3vPbKVc39Px6OIK1XmXw7F1nkPJSjU6tqudSaKo0KCzw2bHuid+cLje+EPufBDyOgw9"
            "/XSpyHu9V9YmSAAn+WDjNvBxNWCF9FESF9S2j5Fz6yOxTTzuY4CvH4ILDnZXuZFgbHU795ESBdVx"
            "Qs+NERyMdz5dO9XNx/zzjOnsNCaGEpquPztE8PXpP89b0xiYW+PsjWERtl5x0h4j9iIyKjyEakXU"
            "m3ryvY0jDYovVqWbEPPRIGC7tWoFoc62fIs2wfXucWTm77Qg7Hw0veeVlxeW8tL2fjlJRsF8hcwo"
            "bR+kROVtW5fAgkynikPbGS5kdSfOWo0z4G/6MdylhoYZ1m6DzU0ipKTsmmYsCoJwv6HJ280UNOWG"
            "jzw+QELO4SRvqXABtpdNWAy6cOF170BXrwYVZv4DJEGQP96MZE4q5lGxvHVySwGX6JvbGb2edOI5"
            "qjNu70E+iu9q9u03I0O1d9nnYB7BiVTBFkVbGo5O8PRneHOwcJZGfoUxGy0mL8pcBoSIeFHxR3YG"
            "BTYS+a1aPDac6wXVORweJJQby22TBej9Gmg8EcKHynhs7iShd3LkeIMoJy5+mA7JuN+jQuvT0nUX"
            "aGQoqVETlx+lQ/ftG1XFQi5qJL0t4qQZsE8vex+eQ0bMAsqEzBgNdXyFRda5HFyMHX3PfhMAaz7P"
            "O/o8GZsqXpdMnGFir3pjblsfHVcpo8cL3LhwaVnZOX2Oguyfi3ffH+ZC/oX6riJCB9vmWmbLnuZi"
            "1Z210V0Evyf2vE6X7WWgybtAa/85Lpa07CqKb+KiHjx73wkqesaXaKkv46Hfa/TxhB4PAtXaZicj"
            "4vxU9vm1+6kwD15/IiuDisU2lT3VLUyYPv+0NMNSCFnVWRNHpAg/l97ey54pgMWSoxeqzQQ4HiNc"
            "avPXF5Nv24JQTkVJ83INv3U0mDyN1JmeJnTogCDlEuETauU33+cLafi7fDDPgtC9Sv1Tt+6tDkaN"
            "fYye9w8eck9fay48TUb6u7eLnh3jwsLITWuAmFuD72k1H+4KcDJ9/sMNBFdMJ11Q0tnOg8MNy5cT"
            "wRxoyL8xeUfc93ac6tghRxJCN2O/4RANTlc/XtUrZ6CusYwef4mN5R9NyXP+kTHsY57wTlaEwRJ7"
            "7Yw8LiKztMxOLgkHe8P+tRc1fVDla/a61ooEv5SDyvYHuEgjneGsIeb9Le/asUdULiJsA8T0Fci4"
            "NLMoSauMi5+13WSpOAZMArcK48spYCvUePSfInLBldkLv5lTcPW+V+jkYgakJ/a9OVrMwbvvbK+q"
            "VVw879Bd+EiDjUOXNnUPJPKx2Z2juCTfH6M182tzE6hQP3VRZ94dBpGXbrbJFvOgYLJ/09YFfHxy"
            "r7zYxRHBYIliw9XNbJwKclXVOszAyPavOXZWFKTF2sf69jJxsGiBecsjDjatmLWtbSkL2odPBXjt"
            "5EKBkeOjNUrkJQXxJd+y+Ggesh9Tf8FH6vZLNrrDJHxlHJygHqOiXjM2Wm8ZH2NbnG9pzxKCtJZ6"
            "5cMmHtrdK+lRs5iwzzK8G7mKiZP7nPSkasgwH/XpGiX0Y+0XuahbBI8aex+myVbSsNlkzsvUBjqS"
            "L/3HeFlIQ3dSxmHmBWIflYr6VrSyUWMm63xlmxDrfqhaUs/64xuvc35wBg3OD0KH/qkzcf97abVA"
            "nYZ4F1WmUjoNPzMMHUgcgoMsM44PSAoQwZ2t/dWDhv7eHqVlxPmW6f2xr11oaL50L/mVPgshrvHJ"
            "5vOIfbJT35hKcHmkYQLt+3IRtv+WZRxXZqPtSXdMa6QA34yvLCoooMBBXziQbieE/nv3Wp2rRO7W"
            "Gkt8kMCB2EbqzwPEd18hz3LMbWXiSON+ozUdARgxP9cSEe2PvlfPMhIv07C3XVLdJISOhrs+jio1"
            "hI9n0ct3kJiwaa7tbPlDwm0bLb22E1x0a06/S7BgIVvL9Zt4bjAedfAfTX0joWSKExZwgwpxW+F/"
            "Yg5cjOZWU3efYKLQ6IDGJUkeHrdtP8NbzQFDy9EqlODTo/9mfV/4jIbAm2Gld9hUPGoa05ZNIPRg"
            "gkqdq8RAvKRpxA6DAMB6v9MpYxac7Oc1ZXIFeDInp7QgKRih76Vi98znIXb+td/zPvrhwofyX26E"
            "7pRWdqStI3TQwSWw2oPIOfzkppyipVTIKPlru2YHILo02SmnTYhbZqFW4z/osIvZkW08TUJvnBlW"
            "NdLwLi0gzquMDWOb3xeSCD6Z3nTnBUmVCrn9VZfoW4TIEv/0T2cHm/DLoNK5Sly4NS9L+k3o27gE"
            "3fntHgFkO5X92Qf9ER9e5jNTnph/nb4Taps4UDEJFRfXY4E740jZvCvB2DD4pCe6noJQpa4JOW06"
            "usQP63bep8BRK7Iv5z4bV/xI/v4NLNDnj8wpD6Qit2nFnlKCm8ldNknje7i47k5TUybywiL1nt1N"
            "X31xkJHvOZ3LwBLOcdPOEj5Mfxt+fJdPzGvu2z8zCoXoyehyVl3GRUfTzVuHKzhQvqVrK97lj7iP"
            "l86sfk2DlPeaJ7L1LOjYfizy20XkLYWd5OlvBBeKr78RHUeFsrnMhSiCM/8zelzlSOQr8mqHM/s8"
            "g/C1o05PdISCWfsqnXZU0xF+TH+jRgkPxnUS+xKIXFo4Wuj18DYDu8VObDIO5SDZZINuywIiL7yq"
            "SblP8ObdhYbfteby8eK37SbvXSyUXr85d6MfDf8DgFaqeA=="
        ),
    },
    "lse": {
        "dtype": torch.float64, "shape": (1, 1, 66), "stride": (66, 66, 1),
        "offset": 0, "numel": 66,  # 0 of them NaN
        "data": (
            "eNoBEALv/Vn3hpQLQOM+WfeGlAtA4z5yBHaZ/PrxPulAG3qJB+8+7H3Y/hWU7D4EHBXC1MPwPuek"
            "V9bEDvA++Ey4JpDg7j7RLigud13uPk5nEZtRQu4+dZY5kUmn6j4+ImRUDZPvPs69/owzI+4+dLu5"
            "3PrL7j4r10+ICwfuPhiVwUe4yO4+Th6RKeBq7T5kLur+g0jtPhGK4SInq+8+IX3cdqfg8T4d4EdF"
            "9irvPuw8fz0VC+8+8TA6fyNa7z6izXtAKafsPg1ikduZ1+4+dG6aW4028D4UJYCkVdXtPhkPgeq1"
            "1/A+ZXb/skQJ7D5lS5qHsmTwPtXoR9sRVe4+800jOPQ+8D6twmRc0M7wPixRa2Kmau0+7UumC/UJ"
            "8D665VmCyHvwPpS6gm+/CfA+1gd9plZG7z7uCek1SfTwPoq6jt5cAfE+WZeekpr+7z4RMdbMAW7t"
            "Pgu0/EniBvE+dC8TKVaV7j6kZN/VZ3zwPi/Fx+q1f+w+9o4njs7B7T4rEdXgs+bvPigIQD0Axe8+"
            "z8i5OvQj7z7eNigtn/LxPldLn73fEPE+Nzj4xO6c7j5O54ib4DDvPt7eAe+Uee8+NO3GQCB67z6g"
            "J1rfXTHyPjFz2Flw+u8+1zmWbKU27z4fltW12XjtPstcZriyfe0+WkZnlEvf7T7sZ3P7SHrvPqsa"
            "TnfbxO4+CvWaRCiF7z7GUmowtL7tPl4PEqw="
        ),
    },
}


def _tensor(spec: dict, device: str = "cpu") -> torch.Tensor:
    """One embedded tensor: its whole buffer, rebuilt bit for bit, viewed as it was."""
    raw = bytearray(zlib.decompress(base64.b64decode(spec["data"])))
    dtype = spec["dtype"]
    buffer = torch.frombuffer(raw, dtype=dtype) if raw else torch.empty(0, dtype=dtype)
    assert buffer.numel() == spec["numel"], "damaged data"
    buffer = buffer.clone().to(device)  # its own memory, not the bytearray's
    return torch.as_strided(buffer, spec["shape"], spec["stride"], spec["offset"])


def inputs(device: str = "cpu") -> dict[str, torch.Tensor]:
    """q, k, v on ``device``, with the values, strides and storage offsets (inside the
    same NaN-filled buffers) that the implementation read when attnfuzz ran it."""
    return {role: _tensor(spec, device) for role, spec in INPUTS.items()}


def call(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> dict:
    """The call under test, as attnfuzz makes it."""
    torch.backends.cuda.matmul.allow_tf32 = INPUT_PRECISION == "tf32"
    kwargs = {}
    # attnfuzz's bottom-right mask: SDPA's causal_lower_right.
    kwargs["attn_mask"] = causal_lower_right(q.shape[2], k.shape[2])
    if q.shape[1] != k.shape[1]:
        kwargs["enable_gqa"] = True  # KV heads are shared, not repeated
    with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
        out = F.scaled_dot_product_attention(q, k, v, scale=SCALE, **kwargs)
    return {"out": out}


def reference(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> dict:
    """Attention from its definition, in float64 on the CPU: out and the log-sum-exp."""
    q, k, v = (t.double().cpu() for t in (q, k, v))
    group = q.shape[1] // k.shape[1]  # GQA: query head h reads KV head h // group
    k, v = k.repeat_interleave(group, dim=1), v.repeat_interleave(group, dim=1)
    scale = SCALE if SCALE is not None else q.shape[-1] ** -0.5
    scores = scale * (q @ k.transpose(-1, -2))
    sq, sk = scores.shape[-2:]
    i, j = torch.arange(sq)[:, None], torch.arange(sk)[None, :]
    if not CAUSAL:
        visible = torch.ones(sq, sk, dtype=torch.bool)
    elif ALIGNMENT == "bottom_right":
        visible = j <= i + (sk - sq)
    else:
        visible = j <= i
    scores = scores.masked_fill(~visible, -math.inf)
    sees_a_key = visible.any(dim=-1, keepdim=True)  # a row that sees none gives 0
    probs = torch.where(sees_a_key, torch.softmax(scores, dim=-1), 0.0)
    return {"out": probs @ v, "lse": torch.logsumexp(scores, dim=-1)}


def compare(name: str, got: torch.Tensor, want: torch.Tensor, bound: torch.Tensor) -> bool:
    """Print how ``got`` compares with ``want`` within ``bound``; True if all are within."""
    got = got.detach().double().cpu()
    if got.numel() == 0:
        print(f"ok {name}: empty")
        return True
    bound = torch.broadcast_to(bound, want.shape)
    err = (got - want).abs()
    # As attnfuzz judges: an exact value past the dtype's largest by more than its bound
    # must come back as an infinity of its sign, one within its bound of it may; other
    # non-finite exact values (an LSE of -inf) must come back exactly.
    limit = torch.finfo(RESULT_DTYPE[name]).max
    want = torch.where(want.abs() - bound > limit, want.sign() * math.inf, want)
    same_inf = torch.isinf(got) & (got.sign() == want.sign())
    err = torch.where((want.abs() + bound > limit) & same_inf, 0.0, err)
    err = torch.where(torch.isfinite(want), err, torch.where(got == want, 0.0, math.inf))
    err = err.nan_to_num(nan=math.inf)
    ratio = torch.where(bound > 0, err / bound, torch.where(err > 0, math.inf, 0.0))
    outside = int((ratio > 1).sum())
    at = tuple(int(i) for i in torch.unravel_index(ratio.argmax(), ratio.shape))
    print(f"{'FAIL' if outside else 'ok'} {name}: {outside} of {got.numel()} elements outside "
          f"the bound; worst error/bound {float(ratio[at]):.3g} at index {at}:")
    print(f"  got {float(got[at])!r}, want {float(want[at])!r}, |error| {float(err[at]):.3g}, "
          f"bound {float(bound[at]):.3g}")
    print(f"  non-finite: got has {int(got.isnan().sum())} NaN and {int(got.isinf().sum())} "
          f"infinite elements; want has {int((~torch.isfinite(want)).sum())} non-finite")
    return outside == 0


def agrees(name: str, plain: torch.Tensor, embedded: torch.Tensor, scale: float) -> bool:
    """The plain reference and attnfuzz's oracle agree to 1e-9, relative to ``scale``."""
    close = (plain - embedded).abs() <= 1e-9 * (embedded.abs() + scale)
    if bool((close | (plain == embedded)).all()):
        return True
    print(f"the plain reference disagrees with attnfuzz's oracle on {name}", file=sys.stderr)
    return False


def returned(name: str, got: object, shape: tuple, dtype=None, device=None) -> bool:
    """The result is a tensor of the expected shape (and dtype and device, where given),
    as attnfuzz requires."""
    if not isinstance(got, torch.Tensor):
        print(f"FAIL {name}: returned {type(got).__name__}, not a tensor")
        return False
    for what, have, expected in (("shape", tuple(got.shape), shape), ("dtype", got.dtype, dtype),
                                 ("device", got.device, device)):
        if expected is not None and have != expected:
            print(f"FAIL {name}: returned {what} {have}, expected {expected}")
            return False
    return True


def main() -> int:
    print(f"case: {CASE}")
    print(f"implementation: {IMPLEMENTATION}, on {DEVICE} (torch {torch.__version__})")
    if not __debug__:
        print("run this without -O: its verdict is an assert", file=sys.stderr)
        return 2
    if sys.byteorder != "little":
        print("the data in this script is little-endian, this machine is not", file=sys.stderr)
        return 2
    if DEVICE == "cuda" and not torch.cuda.is_available():
        print(f"this reproducer needs a CUDA GPU: torch {torch.__version__} sees none "
              "(torch.cuda.is_available() is False)", file=sys.stderr)
        return 2
    if DEVICE == "cuda":
        print(f"GPU: {torch.cuda.get_device_name()}")

    x = inputs(DEVICE)
    # The whole buffers, to check afterwards that the call left its inputs alone.
    buffers = {r: t.as_strided((INPUTS[r]["numel"],), (1,), 0) for r, t in x.items()}
    before = {r: b.clone() for r, b in buffers.items()}
    got = call(x["q"], x["k"], x["v"])
    if DEVICE == "cuda":
        torch.cuda.synchronize()  # an asynchronous CUDA error in the call surfaces here

    want = {name: _tensor(spec) for name, spec in WANT.items()}
    bound = {name: _tensor(spec) for name, spec in BOUND.items()}
    cpu = inputs()
    plain = reference(cpu["q"], cpu["k"], cpu["v"])
    v_max = float(cpu["v"].double().abs().max()) if cpu["v"].numel() else 0.0
    lse = want["lse"][torch.isfinite(want["lse"])]
    lse_max = float(lse.abs().max()) if lse.numel() else 0.0
    if not (agrees("out", plain["out"], want["out"], v_max)
            and agrees("lse", plain["lse"], want["lse"], 1.0 + lse_max)):
        return 2
    print("reference: the plain float64 attention in reference() agrees with the embedded one")

    failed = []
    q = x["q"]
    if returned("out", got.get("out"), tuple(want["out"].shape), DTYPE, q.device):
        if not compare("out", got["out"], want["out"], bound["out"]):
            failed.append("out")
    else:
        failed.append("out")
    if "lse" in got:
        if not returned("lse", got["lse"], tuple(want["lse"].shape)):
            failed.append("lse")
        elif not compare("lse", got["lse"], want["lse"], bound["lse"]):
            failed.append("lse")
    for role, buffer in buffers.items():
        same = (buffer == before[role]) | (buffer.isnan() & before[role].isnan())
        if not bool(same.all()):
            print(f"FAIL input {role} modified: {int((~same).sum())} elements of its buffer")
            failed.append(f"input {role}")

    # While the bug is present this fails (exit status 1); once it is fixed, it passes.
    assert not failed, f"outside the bound or wrong: {', '.join(failed)}"
    print("OK: within bound")
    return 0


if __name__ == "__main__":
    sys.exit(main())
