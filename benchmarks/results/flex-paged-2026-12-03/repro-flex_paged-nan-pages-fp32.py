# Reproducer of an attention finding of attnfuzz, a differential fuzzer that checks
# attention implementations against a float64 reference within derived error bounds.
# It needs only PyTorch and the module under test.
#
# Case: B=1 Hq=1 Hkv=1 Sq=64 Sk=66 D=16 Dv=16 float32/ieee causal-bottom_right-sq<sk scale=None
#     values=normalx1 layouts q=contiguous k=contiguous v=contiguous out=contiguous
# Mask: causal, bottom-right aligned (the KV-cache convention): query i sees key j
#     iff j <= i + (Sk - Sq)
# Property: oracle (every output within its derived error bound of the float64 reference)
# Implementation: flex_paged from benchmarks/flex_paged.py, called by the paged
#     convention (flash_attention_paged's: fn(q, k_cache, v_cache, block_table, cache_seqlens,
#     *, causal, scale), q (B, H, Sq, D), caches (blocks, block_size, H, D))
# Found with: torch 2.13.0+cpu, triton 3.6.0, numpy 2.3.5, hypothesis 6.170.17, backend
#     interpreter
# attnfuzz recorded: out: error/bound = inf at index (0, 0, 0, 0): got nan, want
#     -0.2982938088858126, |error| inf, bound 7.82e-06
# Found by: attnfuzz --backend interpreter run --impl
#     'benchmarks/flex_paged.py:flex_paged@paged#dtypes=float32,float16;head_dims=16,32,64,128;lse=yes;windows=yes'  # noqa: E501
#     --dtype float32 --property oracle --examples 1 --seed 4
# Exported from the dump oracle-flex_paged.py_flex_paged_paged-float32-20261203-180803-17053 by:
#     attnfuzz replay DUMP --export repro-flex_paged-nan-pages-fp32.py
#
# What it shows: Passed the inputs below, the implementation returns a result (out) with
#     elements outside the error bound that attnfuzz derives for this dtype, these lengths and
#     these values.
# Expected: output within the bound; rows that see no key are 0; the inputs unchanged.
#
# Run: python3 repro-flex_paged-nan-pages-fp32.py. Exit status 1 while the bug is present (FAIL
#     lines, then an AssertionError), 0 once it is fixed ("OK: within bound"), 2 where it cannot
#     run (no CUDA GPU for a GPU dump).

import base64
import importlib.util
import math
import os
import pathlib
import sys
import zlib

import torch

# The case, as attnfuzz drew it.
CASE = (
    "B=1 Hq=1 Hkv=1 Sq=64 Sk=66 D=16 Dv=16 float32/ieee causal-bottom_right-sq<sk scale=None "
    "values=normalx1 layouts q=contiguous k=contiguous v=contiguous out=contiguous"
)
IMPLEMENTATION = "benchmarks/flex_paged.py:flex_paged@paged"
CAUSAL = True
ALIGNMENT = "bottom_right"  # if CAUSAL or WINDOW: query i sees key j iff j <= i + (Sk - Sq)
WINDOW = None  # (left, right): keys i + o - left .. i + o + right; None: unlimited
SCALE = None  # None: the default, D ** -0.5
DTYPE = torch.float32
INPUT_PRECISION = "ieee"  # "tf32": TF32 matmuls allowed
# Where the call runs: where attnfuzz found the finding.
DEVICE = "cpu"

# The function under test.  MODULE is a module name (importable from PYTHONPATH or
# the current directory) or the path of a .py file: edit these to try a fix.
MODULE = "benchmarks/flex_paged.py"  # run from the repository root
FUNCTION = "flex_paged"
PAGE = 1  # slots per page of the cache, and the seed of their order
PAGE_SEED = 1010


# The inputs.
# Each is a view into a larger buffer that holds NaN besides the view's elements, so a
# read outside the view would show as NaN in the result.  A buffer is its raw
# little-endian bytes, zlib-compressed and base64-encoded: every value comes back bit
# for bit.  inputs() below rebuilds the views with torch.as_strided.
INPUTS = {
    "q": {
        "dtype": torch.float32, "shape": (1, 1, 64, 16), "stride": (1024, 1024, 16, 1),
        "offset": 0, "numel": 1040,  # 16 of them NaN
        "data": (
            "eNqllvc71/sfhyVFdkmkrCiRsjKS9+v5aWmqREgUzUMqp0hKZYeM7JUZWdkS8n4931qOXSF1IqIy"
            "WtJQKb7nf/j+8PgD7uu67+t62DimUbVgAzTIMkZRnUQ6dN6H+jlVUXdPVziZFwNauSvowTw3k6qx"
            "tWzgFlH49SoNV8VfJ++Xy4KV7mVYWW4Gc84j0Xg3B4Lf/wPKSfvBYP5xTs9gCB2ev8PKw/E43iEC"
            "M8sC4Y+8Eu09M5P7trIR3ApCoLLuINR9UYUsjftMklQdFl6Vxkt7BDilNlMqZFRD/npQQzVV68El"
            "VZL3TH4mL2H3XsLsL4Z7tjZw/7c/dr3kgWKUD/GIskYbXjxs0VwA0ruP4qlpX6GhKhxeBBxmhGud"
            "caONco2V0wHcofCZrB3mQzk+VTr+IQke/msO50T8mc7RWMxe4IetGwww7HMCihnykdSsdDp4SQ/W"
            "pu6B6aci6L4z9WRI0wUb1aJpqpYp3NsjgJPSgfjcJ7s2+EsZ8/G6FC/PKB5FDFuw5HQnxpkHwZpU"
            "fe7T9Hn0W/x2yExxvVPs00m5s46QYPCWpsA1tDyTAzLUnt44UYDfnZ9ix3tRztNuEa/+gR9uDDoP"
            "4lXHIe/yO2pl1o6mg/GQOleXlFmvxGP0Nev1IJ5uX5mMHIih3Cd9KjIpCznZyoy+Twq2rHbB0MFo"
            "0v4hDjVqFnCjmXXUblY3Gzt7MTT/4uMJvF1Ab2UugDINBaImaw7pm49iWF4pFotngYN2NhzpV8Li"
            "Cyzt9BLERzV+dPqjanDqTKDP314EXogWr3REhagXI950XMAak9X4VSeTrnvkzQzPa6c98QeY+WKR"
            "qB9ljqd2eOCwnCSxlR0ltnQtfnQVhCMj1nA+OQwDlsrhxCkNnlbpfqYniYHxgdvQ0aKG7rxt1FEp"
            "nsqEieOtJd40Yf8K9K+VYjqqHlDh1/dx2YVekvRwPztwwxaOdFcx6f2uIP/KAtxVI2BWaw/aLqzB"
            "vLEgcOhSI82HloFa/99gkuwB35a2wk3uAR5ucKJb5FYxB69VQptHB9G84g3uv/3A1/k2Wbe5ENpe"
            "f2D1r3jifbt2ap6Wg8bXfegXI01y2mgumAWr48xNNzC0Q4kno/6C2nfuJWZBLWAzmISXrCvBx6iO"
            "2S82QpZH3wGHC1fp+zl6oB1wDGTGBklWpSqOuD7DeF1lnCpfDLsHy8F8UzQez9tCX1+dCa9ZJR6/"
            "0Heg10OZaV36+JhxAQdHMa58bCfbXkugqkIZTD2C6csuDZpR40L0mQ6Q7bpNenbLUnmXx1Ti6k+S"
            "xrRg8CA/map8SG0ivfCdawbu3l+KpduKwNzyPAq0RcCFzRx8DvGGscuB5OLJtWSG9gx6unqKyJdk"
            "kO7PNfh0bgy19/PFPmN+Ms+mDLh/FZjSQyvwT9Ev3DE9GVYMlLKyAg1gpuALrkyOieL0GUT5Nz+M"
            "+QbXeMc/pqNXbQH2+sCIsiwjcVYGxo7fg/DWk0Rn5X88JrfIjIBr2N0ziGph8vglJgqf/QkFr3Ef"
            "iB21hZL8FkDbLNZ6312o9siCuqs6aGaSztZ08sOz6yJcSdR8bDBdR7WkzfHFX0W4070YnN7k4LPq"
            "7yQgzhric1PA8qIOxHYdxdVb86Cwu44EDuhhkQ1HVIL4ea+OdcCRrQ7QVmMBi+ycaYWYFM9F3Ata"
            "B1OwIysV+BqzIWF4DfNLu5v6Jt+khqrfWYG3IfDPyDwuXdCFNG0qAi3DSGyeM0Y3SNaA3twwVCyb"
            "YC7KRMF2ZRtIcDhJRF6WoUC6HflkeAWneSjj8eMW8EA2EeN6F3LMqyacHIrHKGMV9F5UTR7+LqV9"
            "U51wNHkH3GwcBsnsd6TTeoz126ZInJuQWi3WxVdnQ/CSmhmec+3GArlm0uToB00V9biLzWYjS47B"
            "oGAvye4gmGMYCqb6xjhsHA25gXlk2GcD+DtfwxQVfzIuPgdn76wgh2SLoNV3Lnk5qkTiqg4x7ioH"
            "8a9EO3hRL8H1zRJFPSEL+PpUCqN+BdMjW01IafseoH+Q5qYIoUfCGrha+hXmeCdBTE0Ajha20Y3T"
            "nLHWoBIC098Soe+FbOXIR7j70B5XGWcAeN8iZn012DrZiwli4Sh7cSmcUjzA2pdqE8+ZD4nv0XDQ"
            "SxDkBR+tIc2ZlcRL8TLEnCwnp5OPId9TBbqwPBX5OG+iO7oevL5UEK3kdVi/qJGd5p+P6J6CIfmb"
            "qZjDbVT04Ni7n33I/IEmuDy0gRhlvYC6O0a0vfImTCTb4V8HuqlQWyfcfpoNSfyd5JPnJNmkPosH"
            "EY8hOa+RObNoF1Ma5U10XK9QV5Ht8K4/hEqdVSQr5TVQdzSd0oQPxNckuHZ3IkHjaR+hemMNvdYd"
            "AEPvDfDMvkY45x8LArI80rj9MYSFxFOF9RHws6eACdouDRYrdsPpZ0W1PW0syRFewlWKBxG5FRPw"
            "w+UI5RsWwNBV+dBY+JEMD9wjth4Z+Hyyley1O43sbTtMzX9GhdRnYX5SHvibKuK9A9XAymRin8QM"
            "mG/GoaZ+CJnarUmeRRC8IaECA5PeYKdxAfRsJFCGWJm4nfoOL9tzacf2EpA71MpIk70Yk5wDJqJW"
            "xHlvCmhPCpl0nhXnYG0QPNG3p1mP1pA3aabY9mInOBQ14LS8SDTuXAF+Fb74IaIQ2g/VUv0JCTB6"
            "K8mpRvlA2G8W10Uoo1vLDOzZGo+6nhfgjMspYt3r/59XfuQT3DdevE2AhHkcoaUVLzHCVhsLRYNY"
            "8x+b0YP0QkjSVXroSQHCtLm8xyVW8DK5DV1VN4GmReOdB76hpMlPlR5WFOKVbvMnid8esd2rRzF3"
            "4qBJ31YgDjVJTEAoBf8Jf3S2KsCoPxtYq5n3YGViIfjcukct32TjVllhNtVzklkYNoq7nB/RLIN0"
            "WG2UgpI35qGzRhDRVCymZ6Wj0TLAmS0bWMz7R3gTmKc9BY2TPmgRY4faw55Q6khoVqI3yk80MMYn"
            "boKm8HPiqJGFTbNVIO28Lhi799J6szqcL3wOshwCYVIqGNO5TjIQ4UU/HNMi89xY+jw4hF3vy1JP"
            "cWEUlDWktU58vE/1BL9nXEM/yTHyU8MUL9g1wDrHMFgo60OSNNZzamrprNabEFy4k4eS11OgWo2H"
            "wz19JDlIB0+8PIGWfa1s29IKGlcqzhUufw+bjqdj+6ty0Fn4BuxzfOjYn2v0ZlwK0ag2x9GDD1ht"
            "XhvtD3fCrRBI9x2JpfJWYhz3bIz4x1bRTHN7xjPaHpP3/qj9OGmJSTx+3qLKNKq9bA81XvuL+XEu"
            "m1hWpGF+eiPRuDMCWRuL8OzOaogsGkHdxL/pggdiOPXyDOS8VqeJsBFtjmyju4Y5vBIizHSlHMd9"
            "g3Koub4TzwpOZ7vG71IjfUFwWli92rC5jCrUBaLCN220vOUOkVcGSe79eBoq9adWbXca7gn0oece"
            "d4K03hPMsJyCVzpq+CrOhD2XkYQCWXH4e2UZWEsIciVJUWz1vGZ6V9cM7Qvi4LBoHNqIv2AKyk8S"
            "S6VIYiS1iZ6OlCPltSIw5KHFK3JqATfrCWKRbw83+seo1/hpnPRtIJZ6T5knsU0kvF6XEy5ZADfn"
            "34BQawmebmk0dixOQk1JQ/pwtI9u/JaFmwdX4FLRW3SDiDRJWX8f/tIXIypexvTbDI5dF5mCXl5j"
            "7FMLdSjbN45DM5VAynUTtig9YDesPQGJg5p48aAsyX7RQo7Q2RAs40VV7xaBdbER4/Ckn0lU9mK+"
            "vPpNXoAN/pl+FcLd1UBhqof+3K6ELQEEZ5TI4YW8LBpdXIg7X1yFKPH9hHXTR6m/b+OahcdAO3Al"
            "yuoHgsyu6NrryRVQcFcXVKTn8qCRD8fbtmNGbDB9tigd1zh2kVlnj8MjPUNoD4nDeulwWDSXn9sj"
            "DLTYQJ6901UBK+/3k6ieXnLy3nImXfAEHrLygwYJE+JxPRJ6v08ydhkiIPZ7nKbdkSfRpitJ538t"
            "Cr8tW71CKxT5xH6ybXmZzLS06+TXdUVIyP1N+FJegbnMfFyxPBcu99VA0zFl/MzNxLO9xzC/QgbE"
            "AmLwaFgV+Nau4rbMtgJxqXxQvXAI52sHQI7jUzBfR8mqxkbmYmIjfXzmB11U0ILLSu5Q69sGdGpd"
            "DKpnSEAkd5gmBM/iniQ9x+XPl7D9gttwL/LjgJgQpy0RT7puraOSGzNQvfgt+jXEY+a4JqPPr0ij"
            "A36wPaWZaPq1EkYkkbm3RAS2zDgJ8/jC6ev9heTruX0kud8ctc5sgbRkQS4tyg2c1kviTrVI+NRF"
            "SX+BJF1mfBZa37tglJ0IdPWkYHZ6I31/3xdMQp+TIN0sVOzsp0t+SxB3Gz/8nBGLuivCYWrjd6Iy"
            "/Q7JjLWkr6+8oCk3ImD3ye2gkttLEqKy4YDtPzjxkweSCsnw62U3uM81RIN0HxPbkmj0lneu5Ub+"
            "+2Z9qrBqw7+4NJqj1kkfaa3GBDnlng3iS0tNFCekwXudBezoCwSrDZfoyUudMGMXPywXlaGG5Dgs"
            "/raee9hXz6xSaoY5IMMV331MzOeo42nRy0x8zlua299BB6Kr6TnrV7h6pJnazx4C+aQGFDKVRl+f"
            "G1Qk3JX4nZnNlR+0o5+CntBEbhpPusyXmvIHoVGvF6bZLULR0TfUT/U1HBCxxXtLg7G4chVsMVCl"
            "cqs66NDsd9B8LRb9hkwgMdAZPadnQ9aapaiTOQO7atLJLU0e0cq9AK9nOmC9bYDJVIQfRNeNk0N/"
            "19FhXTUYco9hPut5I/csBnzkFEBr7Bv5fk8HFSeC0OanEZ54nwGnL1tTdYNmaul0kCy6KIp9ZrZ4"
            "+G4AeaojhhpsEaatUaeDQZIQca0A3R6doxu/y5BP1fuQ6xRlypODmNTZurRwyRtIz3FiDvsew12a"
            "fqRh+R14PjRAP3pGYMYPX7Rv8oXi6RI05HIwiWJvgUvVHKjzjmTCX/rT5/+OsvMt6jHGspXeTA2A"
            "ADFD/L3VnsmcGCWnuh1qXcRLqVmQMpehcBSOdrihY7QrcjtS4GtGB4k7cIH82vGAOAgtZULc3FDG"
            "YhlDva7h5P2v9APNJlvelzCBChp0QV8+JNVdpFJi2fTmP/exorIEM7qjyOXQNCZoVhBjHfsQ1NsL"
            "YGa5D1aaLkQt9wwy2Lma8PFxl/6f/Q9uWQSO"
        ),
    },
    "k": {
        "dtype": torch.float32, "shape": (1, 1, 66, 16), "stride": (1056, 1056, 16, 1),
        "offset": 0, "numel": 1072,  # 16 of them NaN
        "data": (
            "eNqlV+lfjWsbpUFKkwZpNodmUajnvjYZIpKU5iIJOY6jmaKRFEqpiJTaxVFqN9G0n/vaFWlQpEEZ"
            "Kkk4mpwMkZPX//B+WB/X+rLWb63f0l67BRvv9VHztwXQ4i2E1rktqNnZQxo2u7NhlTPw0TNRgbFJ"
            "N1OxaxOEZydgk2c1Jisk4qGhaXhaew5YrxUTzLV8TSw1UqDj4QQxzF8AatZ89JveB/KvGFC8fx70"
            "k/8jL/AqKiqlMcdEakHhpjg8r+YSPeF8KK+LRNsoD9joLkoV1ZejzCZ/nO9ThTb9frhv+CWdHGJA"
            "tKmWGRh7hNHpy3DRZAzL8ePiLPFIMt2NRwq9XxHv0c3478PTeGUwu6piwhhkj6dji6M9LbIsxQWr"
            "JDmKH73ZURcd0LARw62VBZT9oU2NVU/SOrmVaDZvjHCTvlOLgL9AX98SHo3sxusWiSg0RxbGG+9R"
            "BwMROidvOXBvGVEdqRDkmdogd2wAu03yyOF1uVhV7YXtau7g2KCGSYFJWNRaYjpqW4T5PZfRKycc"
            "F8/7yuIRcwqjTvR4pgsqNX1mKjpt0GD/XFyqdpFtCc7F8EA78uf2u2zraDGsUN2O3w04UPojmHj5"
            "s1Q/4x/+9qJ6tDISh72cYbMbVdOwe5YwHL+dBmYH4zBv8WlQmb8QWwxqqZOnFPHEfDpTiEsfVopx"
            "pp/UJuuWHob2VkVMTrMhA41y8CLRg+nrEOdYG3axG+qyWbXxdOJhk4lHFKfIU+f7tLBJGVe7HMCD"
            "0yNAc4Yvc3dLEp6ZGUU2xMQTlzt8kiPaWxVjLySIs20gw17+YDTVSa9rGMLf5z6Tn0lWgpgSIVj9"
            "icNuD9kFQdPv4Mnf3GCflWiar0RT13eT6W9ukujSJiLZlEcviInhWulN0BdyHYMSzOj5STH8qXWY"
            "qFd4sHVKCRC45BTR2HseZD/wmTZlCVqu2Y1zfYypx8M3tGHrT9JycTrddW2IJIcfhbT6GvTsUwOZ"
            "nROUV29Em5vKQDjOCdRvxOKJf03hofRqsqbNHrXhHpQnKdPy4gbiye+HKdUGbJjxlXIMZkFaiTUS"
            "0xb2bLoG8J3vkPWeEXSHbCGz50Yns9TZCApWxdLvLwgWv5AQTJMIh9mVBnhAajGdduook2+3C9P+"
            "lYOyxyupaYaowKpbiaY3WqBceDdNlupBr+XKmK7Ipzr8NrKh+iNxehXNXAyYDxcYNXQN6ST0Tpap"
            "cY483PG5jP8OdbLzFwmjw8ZbVDF+CewISgAp7ZuUO2c9hsXb0vIyGcEi+5lwPKcS3A168fznrSzv"
            "XRRIZSCZk6CFOicc6KZcHxrxeQ177msgNM2aB9KLmvFFiyn51r8dZV+pU335XkaStw/mbKnATf7K"
            "MFx/CJZ+68UHAypQt1RIULp8gIhKf2Br61hMiZ6Fj/4YYp5wKkn4UncoW1EC864N4Pkmf2SeKwqO"
            "ZJzHia+t9BytoiUqZ2l722PK/tYNWLYfv6OC4FhwM+38JU6fNx9H/6phZuGf0/FbxwHqPagomPvW"
            "As8sKKIblhaSCfEhmjnVSsMUPGmPQxj9IjKEBx7OwbHws9AppIgaRU6YseMq6g8JoadcKdFK6QB1"
            "7wDq9ridranogXJfeXjTkwUJyKNR0Qqc1nUupDAymxY8PQbrDi3nNM+zgKasufh5ohMf5G3Fhr47"
            "dKsLj7qJmAiEdhSASP4Xort6nLaLxlFuYjN1L/lFamUV6ZJtPGpg7E5WuASj57Mh6lriCRFxutj1"
            "iAdCc6poo0o99LgxYLVyLzyceEiduo4gM2IiiGEb6cL9XlQw8oRNVTvEVPul4JPELOh1imBnSh2G"
            "6BlDKCcuze/l5dLFmUmY6hCMMTX3qcF/oWBl+Ixa2OTRT/MN0H0lS8Y/mYNaDIe5U7GcZC98gaal"
            "n+CrwxZY2BiB+nK6QMoQ5y1NQcfKAFL9OIKIKPWi4t+KnE28SOz/NJNIZ+VjXsh++HCJSzdpsGRX"
            "gDzL3VtI7q25CZMHm2jsPQHeamziS/9MIKpzx3Ak0QDN8t8TINcg7Vkb/UcmBOwTTGHBYgXqnBwL"
            "xl+46DqzCo8sEmZV/0hEJXc1YB8koeHGSVr7NYRUFmnAG6JMxyY0QczmEnzf2gOFcjuoxBVFjmZh"
            "NDRdOURErzWYucdy4fV0PVD/lUV86x2gPugX4XlkQMzutSC3Lpoki/qAy4cy5H1NgvTBRHj6xgtn"
            "XrsDvFIpVP1+iXUM7YTWw1ew3zcdexofsBI3VbHNoQBM9hTD0JQ+VNhuZmKOVBMtxyzGrr8RHq+U"
            "4oyfV8MV8cV499kdVLsSgUnlFcQnwZQqdZ6AyVt/Ur9JZSbu+Dt8bhBJ4m5EwsdaHXJiwRpQXPKS"
            "jp8NIbmnEgEFmXilJR8bJ7hgmZoPJk2XaLy3Fkzs4MK4rKHZcPZOKnPAHwZVi8BvgzSH8TCCZYbS"
            "sKw7mf6wG4Bdp7ShKa6DipqNkfcKF6DrBB9uFBhgS28Z2f8sElZcv4LGjoNgp2sHTRJ1zF3FEnpN"
            "3RAm3eXRsfU9KlguENzMbcLZuv4oebyY3LD/huyT1/TGNC5kZPcw8jKu5JiQPv3u7grPT3SQ0Gnz"
            "UM9eg1FLV+E4RKTD4OMiXOw1EzU/J4Ofzx124KIQaPkUotVPP5xWtghEylPgFrcU7r8NYS8flMAG"
            "8W7+m01c5CedRqe+crqz9By5PRQCr9R94NxKQ8w0e4Ser3fDGX8+effRBi93XqdhfUEQopKMqU6/"
            "Pdu2F8W+3YYzmfHURGEQUifCQTbou1kVukCzmynm6fpTGlYHFWla1HVzAwyap4CIwQjdfy4N829L"
            "C56cs+JPxZkwZTsSmfYnuwR5bieYyl8LgS9qj7z4ECLiO0nOGXIxYf88iOodZ/ZGFlO+sSrn3VFJ"
            "zvCq/9AupwHTV2lAy9XD4OxaDxu5tsyQ7WGqoOEAvl15mCF5DUq1NAU7zXVwTPIePN1yhkldfoFI"
            "dhTSha2hWNeejkZzH9MTfZvhrkU9Dj5PpGUlt0n30HIyrWsDNi6Xx7/dZbCleRT8Yq/iP6tDgD1x"
            "ifLYSXq00AqW1ZSTarkLUKdrBTyHvaC/35I874jFF32pRMxnL7VMToNhLYqVv3urt8KDVt0soZ/f"
            "R9J9tVPo94QHm7S3k8ZV+8il0dlA3ldg3e9dc08wZx1UjLDjQThk2/zO0hZZ8lJ7lNnx/AOlAxpQ"
            "0SwMNSftQOa+HgReVhIMdKuSFPkDzNPIHNBM+YIptztBNWYduElsBf83PWY88Qq48PkkXvLeiEWB"
            "LLFat4pM/CUvmDH7Ippu7YQWMU842+FM/WVyWYHof8zPgmhSzChC9UZRqsBK4k7rcbjne6rq5qgQ"
            "G5awmQSFTWECCYUbZStJwGgTcSlbTWcIy2Ps3QOMWEUKNf+RDCMDf4BqbhJeax8G7scU+k1VRJCy"
            "X5U8TnxFLgcvgPMjM8xK6w7ggf2LUaZ/DXxzSsUzJY7E9FQz2rQzZEHrODUUjqe/YnnIcXXEQOdo"
            "6ttyCdBqIcdXLYcanZPCqfiD+HLAl9iab8PsrtlofykUvNfKEZWDOwn6KlGDWj5w/G+hTkIK6kvX"
            "k422XUyOYxfsrH+PSsYU5soFsSm1ipjCfqGuDVE0Yr0Ex7WCwhv55czF9iM4eSwHJxJ1OO9EDPDI"
            "RlO88q8bSruuZ24fs4QRPQvQI+ok/9ld2BAkyzHhjNA5Ki1gXbgIlA++w78q5+DSRB883vKG/rVQ"
            "BzL2vIRfmxOQvl0k+CgmBu/rvHDHoyVo8sgXg2qjYOyVHbS/1sANZxaT+8oE1kRZkh1Tr/l/lGWT"
            "3g9uGOwgzf92VZksOlEPCZfVcZmXGqmLzqDKAwWQesoJvWNG6Lr7KlTXD4mMaRbujr9Gc1MyUd8l"
            "jpibRYCpZRP/wtFt0Fx2iexo64Ckuym/8/wAd981NNvnrIeWr5aAxfVKzHy5ABUOn4JfWwrQbZAH"
            "aa+FKZkphRXLEuDnhhmcme0B5OZFLtoGWUDiP/epSsJxOiwWA2szePz5nkm03LoKvPz1YOToOD2c"
            "H4AXvuSByC5XkEoMB8fQWsi3S6Scv3OJq1ECjsnGkkj7QVbqmRRG7xNCywkhTuRRU8JGHoHAghAa"
            "vF4KQ/uW4LGu09jGK4OjNUswORrBUMO2yk0gZFakdpKIlXLh7NxATBXNIoHbsqmPBhdrJFYSu3vC"
            "goPMGpxy2i0w9p5O1ltehXWt5mi48Ae4WedAwtwP9KREJn1U62r2p+oIcV9jR+epydKD/qvRpMod"
            "t//hDlbjFIXTXjETPfLMocgz4PV1Ntmj9A1eGKnAW6G78LZ6nHUc3IQuJfWkRi4V7RQ7iaiuPZhc"
            "jYaVMXxYrPKOrM0uhIl2Xeo2VYSP3jgy3AdV0FYYRm49sYVeNT3ceZUPvzxrTF9zvmKn9Tmy7Ol8"
            "sFo7RjrUT8Cxthps/taJcSpZcDHdmTzeOd1MeVkxUxguJlgUqsEUXZZH5oUeFIdNkSLnZDJt13Eo"
            "tMgh0XxJgfa8MHAJU8AL35cKhh89ZoZydsKA7TvyXMUWtbl/s/ecLCBwajlG9VzEdUU+OCW8kVN9"
            "dAnEvjyK8ppetENyHqm6PcoWPHvFau0K4hd2eEBmmCgJPjlfkJjQTDoGpmjZx+1YI6yDfmYhZEor"
            "Httvh8GyuS3U3Okssz75Bm3fsBdQyRrvfjnEWqV5gZrnFzpxfMBM/BoHQs2M4LaiJoieUsA1vCbS"
            "JrwKmItllHK1UejgD9SrX8H58VKMytbPxygPHUxKsIWtoAlJW+rBLFcSBbFpWLfpOJjrtQE1Po+/"
            "4mzIg3FDHLltAUZZRQzX5ypRl1SlR8VE4YCqIkZPSdLtZTko3GdDir2uEV2Jcjj9KRY72rKJaNYg"
            "bGQ7UXXrAwiY9IfXn27h023SAmNrQt8W9NP+L5vJyYdjZLhmHS5oXUfi94wz67mAfizLSPY/Yz/d"
            "m4XCmo4wY6QcPxa/xTPIoTOiPCl38DXVuf6e1mf8/iZdkeTig1AMm2VJ4nS0MERzA/uf81XQ/rwL"
            "vzZuw1mZ58khXivlRh/CTqYaMqpK8LvUDHpFR58miNrhCudg8P5uxN6XEWe2BHwkZqPzmGC/w/DE"
            "rAgcxW+Qp/3dkFkrSaLuW+GtwDiyaM9f0MX3JmPphiCXqkG0V0cSi14WTKZ62Ij+AAz24BLrPHP8"
            "FcKAR68I59bATNx2Ug90Pn0iPWq6cMi6m/ptN8AHf03S9a5BfLnn+4n78wHy6fMl9sXuk7CJnqYq"
            "5jdQbc9m0KLr0fUVF8cCVMFebTpsD3qP06YJQv8f/A99uDmo"
        ),
    },
    "v": {
        "dtype": torch.float32, "shape": (1, 1, 66, 16), "stride": (1056, 1056, 16, 1),
        "offset": 0, "numel": 1072,  # 16 of them NaN
        "data": (
            "eNqllulbjfsbxaXSoFEpiURoNESan++9FaKSokNJclA4HFFShEbNc0mDXZSopDQ4lfb+3o+hpHSk"
            "oomdRBQyNClHfv6H34v1el3rc13rWitqYjeNWKVE+jfqQi5XGGcLNeLaw4C7PTRBMPsQBHYrkwCF"
            "LZim2Ag3o0rpqr1SEN+QBL5zfvEL3klDWe8H6r4sAuTsZdglfV+pkFMR5pxLpLcndImUnAUk3TUk"
            "c03Uwf5MINTc3kuLgmbj1seXMHlOFA2JsydhsWX8W1llVCfyORWoPMPRujK63WUD7rJajWd3jqDv"
            "f6O8lf4ppCz+OjG3jEK1QAnQXmsNZycOoVBxDMbUfqDDjCW9v8EbH9Wdxp4rseBetx4jlvrDY7V/"
            "QHWlAZTMzyE/LVOhW/Mu2V19CWLyMqHZ8xzTym4GSxNxLPpVDbKNSqSgWJLDXc7idWFzLDgqCyFC"
            "CyB0ixSmyC6nZf6TPON8K07amXTUtXDh+R7UYHTPujBRds2gHeZH52lUYUahGEvU2tA6flaNqc8P"
            "+qZ/iFQ/MESVgE46UlPEK5zfSS0Od2H+fBGyTmQ1bD3oh6IHmsm1Ridq7iADmi5ziVeaPSaGKUNu"
            "cDa2qrajMDahW2gE/PTopw4u6uAb/YP0yC8mjW07iUdoKOR95ZINEYrsNZ0eFK3Nh5CBPNMdymhu"
            "ILeOLBrmgu7HYEzvlSfXH/1rZinop+8Pt1LzkMvopTpFu1ME9IPLcvDMFwKpC7Y03j8aK5950g2N"
            "UrTN3offG8GjFp5ZoFI+AxZeaMCSpDLS0RuH5ff+o+MdRug+OAO1vm/GUw6DJCJgOZ4RtaFaQUqQ"
            "AQVQcCWPFopeo6YBatStWhqXRWSav1kQBQLl6Zi4ZJy0ld7DISNrVBt7wi+81YYDozH0wqYJum21"
            "MMeWraaJzktI9NtYOnNpHPyYUgDXQ2KwqSibbGV9+D1wFIY99JF3FPH8jil03C2ONcVHSZZkE7zL"
            "aoC4Z5/JczYEtYOvw4Y6HbbO/TnzzW+c+IeO0BbhJnCuaK25WRcK5YucyE59xOrppui0vh1vKN9m"
            "uMBFmYXLca+XNFtYKUeti7kQ35uJZo0KYPSrHBfX34LSN+E4vkQRxlgpOlVdiMKVF+G7vSq2RfkR"
            "Sz+mZp2/Fzyt3I/bbm/HIyNZuN/Mkxh7tvIXfhAm6zYQ+Pt1FepP/oEeUe+p/mQAjQw9hg0fbDGb"
            "HMc4z3+hPcIDU6eVIa3XoqEdOYQ8HEBln6tQUvII2kQ6cYg0QaLvJC2TFWZzKg5h1nkDrG5BIvJY"
            "BpLXC+HBg5545UZhza2XyvxeAw4Nuh6KTVXqpMUhBd/qPUQ1l0nsEL7M714YQXTMtqHtCQOsyFxE"
            "hwT9JPzncaxKLzOT+fQ3BP1sQSGHZHLmUybsrZHDRKMEZIdF8MtMU3g6GE/fhB+DiplpIDtzEcYl"
            "WVA3fiOevqHMJlnl0DXTFpDcmnc08rUxnrE4jg/6H1Bh8xQqevM++ZgUTRoG5LCg6zGVux5O29kq"
            "Irr2NEQl7sPGkKdYWBFNIp+00p9T0vg2IQqSxxX5zUfCmW1iTahW+olyX1vDQl1ldrmiIb49fx6z"
            "a4TARu8NU5wZhYd3N2BSgSaaDTryt70hpDdaBXu0PGFHcDLUSlVCmLQzKejIxqGgXvI27DfzzFqS"
            "N1OIHzxdD45ddqYXyl8jd3MmrR5VBYUgHZirGAF/m7yCIl4ZiKdV05sOX2DTmiBGdU46NFc8hB26"
            "t+DFKgXkCDuC+AYuVjxD2rl/DfgskSN9chywkKjiRYdFEkv/ESrYOsxPP5VE5ecLcVILwqBR4Anu"
            "XxthR8R0cuXaYbo9bC98SZRCpjwFz4t3wfpZN0HJ5S3tmNAA47wLpPaIE+zttUYdXjgkv6+lco55"
            "mONtDZvKT4B2rzR6du+C8bfJ5qYNOaBarwiCrTvxiI01TsVIwPFLMeDpNkWaNkqBXo4sndwjwm71"
            "e8lXVMhA96YV7Ior6fTF4mjGPewKDXiZDlV/I9aK/oUzsm+QQLVTZGhzJ7oW7cId7q1EWayPikh2"
            "gA3ZBC9MPDG5Ro/oxKbBH7/ugVyXB7wzeI02x+TZr6AML2dvY2rKjlKvoINMqpA6W3vHH13eazEG"
            "lIGKJoazutsVCm6O0ztv5LAk4RTZev8pHP4sz6l0OoEBAcaUNGbS3EoWjv86D96NXKi7HUNG7Lzg"
            "8DdjOGgxg6lxFhDp0Txa+TMG5DIkYO/HOPyskkqs3lyAQdcyZqCzEzp1TGliEVIXVhFD6utxZ3Yk"
            "Hvt4A2LIQ7xv7IblI2XU909foqNRjStz5TmnZ9wD45OuzDFDK7jvqIM1EX70JTcJDp0UY9+NHcIX"
            "xaUgtOsmnb49EPrzP9KX0XOha4rCi9E9JGNYHpWHZ0HRu8tgOdIDDgEDcHDIk2Z7yzD5Sc2UI1uA"
            "xuJcbDpjg+v6N9OB16dARESXMl/OY+pgIHEZZMns8+fhahrAf6szsMN4gl5hranNHiPY1/menspg"
            "ibulLP1TedI86zsL8rwtMH1LAjhF7OIHlpjDmudcHF9qT2S5n8j3+81g+Ckb550qBlHTS0TdxYdY"
            "LakivzTUUao7GN0/VZCN+X/A0uB6ZsUefeDOz0bDq49J304VGFC0wFy3fFAJLeF9V4wGlW1F0C4j"
            "zs6sD8JDZ6Z4HuM/6NmYmSBXYYrSAw/Q2NwVX6eswxlzVsKIsR7sjIqD/ExdjtWZVfxJ9WF40SXG"
            "eqg/Jy1/p5Iz3drg6FdKhso1yGezv2i7ahNN/7mRxOv8RyTDlPBExUGw5BRg+60hiE18jA59PbC+"
            "Rx3zxnfRjcarYLNxI3bvSoC13D4kPAHT8hRJyNZEdLNcyPkSvx9s2EckQVAGZtsSyXB2Kv/qKzGM"
            "rpEgewJcwOlaNgm66obuXjmwo7+IPLG4Cpo/W8jJf1RxvPQ4fTVzCGO8U/iRi2Novd4XMpx2E35c"
            "OwyG8QvYt2/1cYy7FS+qKQF/sBZ/1D+kfdHPmAgzA2gpzMGlT2ZBscIY6UVv2r45BJV4K3hRdQVw"
            "Q+IKqTwdDVpXgXkxOEg0X1rA7N9+V1cLSNPXLHxmm4cZenOwYsVtGJNZQC/3XqbVRQfp3i9RkC4m"
            "x9nQ+w70D6TwqwP8YHBJPGMXLkm/HUgi91w+0Hx/Cc7rB8pQmsCS9xPmsFxfju2erg+n7qmiwWYu"
            "bcoTpwM5NsS60pk5U6iO7fHBGMq/TBRan9AduWf5Mg3XmF3PvalU6WbU9wynh8YeEW1nf3zm9RS9"
            "2Fxa466NQQ/P/d6293Rd1p+kOTuWBCWoccRa5mFtGcW6eVp4/YMt/5HSPPw35Cax95jOnlaKYzju"
            "dfDVZBpuev4JT95ZhmvybKGxczqImBUw6U8f0KXRB6niTwXQWHmUPnhSSZUvjzAWKaXoaLAAXF/d"
            "JR1RhFTapeG29iBsti2n37tVYJpgNZSZvCTvyzVQdiIdru2bpOlFVaZHpF9SnoMbxGiMoElTJDob"
            "uJCOgjRoI1V8FysxvPF5A1qWSYPGklJ4aWBFtyycTz6Mu9D1AZdQaBoXJk0bcU6qBBwcvw9zDyzA"
            "z23b8Oul5Sjo8sOhIyvoCRsZvJrkiPaZ4py7evVUxIxHFh7WJbH2DMkZ4DLs0Sj+jigJ9nu2Jt43"
            "7eavcp1OtSte4DqdaXTxxmxQ/hAJ6/bFoLzPCs4Moz2kc/0/TGf7Iv7EcTvo79qFS4X/AEv+cnMI"
            "WEZPSbPwuE2EZq2NNJes9MEFmXa40TYYu9YuArm9GbC8Tp7RzGugQl0FeM7OjnCfG3NCD7mBn6s+"
            "OM57TbzaDKFAcyXs851PQm7cJ+GPB8gjY4JvzhWTZfFzoD7uAPjccWcSSkTwe7QPuFzrwsALhdBc"
            "IkILlcWx9fdf3HKc4XfwAmnhUS3oVfPAud4ARmJ60LdmiBiFq5GN8rnUe4EKsFKmkL7QFmeKJfMT"
            "523G9cU29PTwV2avVy7OU5LAxyHvSXS6GJYzI/zkOzyYTc3Rbk4SqZEYJHMuLOYck7tHS25Z4yzp"
            "MmY8WxaV06pBvvcevAsOoptcHMlinxhYm2uIK+8eh+zAEuLnvQhbKn7wdWuq+F7rinCwYinxWPuS"
            "3BnVx1OvwnGdiTbE8KcT85T9WHlUAXn2eXSt1xgsvTMDHjZKcnhmTngHSmFerTWdEH2Ht/RMYNl9"
            "Aa5yOUGcYp+i1RIFjqHtTvA7b8o/NSRDylUzUU1PAN8VSomjsQA0332EutKLZI3xbLqqvI10u+ZS"
            "2+376VTJWfglKoqSjUHQWpYEtSZxZk6+GyDYSBrty97wmzij2JB8GKXdTmL5bClyLsCfGjouRsmC"
            "Wyi0ZjnUfyqBeJc++FqRRR+P1/J3jn4Ho4Zr8GN4FbUxrwbH2FZmjtQsYrs1FIrbA/EYylC2Kx9v"
            "L9GFCvtkqIs9gTy3D/RCxT785BvB1+ZJYtyTCnpopSmuPaeK62sVQbT+NkRMY2B06hW12yX6O0sL"
            "2TePgXs7ZmHN6BsMq2/AbxJOYGDYg9ZKPNydHQfDq65C2yIrZjBxD3831YbPlR4gzgQT/WcHCKcp"
            "FlZo3iS6PnP5Cedy8OmBDlKtOh9wvTC7QVwLxX9cIQYavbAgB1DJT4AX51hiZ6YZZT4P4M5X6uCc"
            "E4x83zqQm+yHP1vC8VmqKulanQ3HBs7Qtn2RILhdQ9LsvtCTTzUwVXoNGI4JIFnfHrud5clSZxFO"
            "0ZgVLFErpiXnTHC3twF19tSge7K84cbiL797HYby5yJwtGQBuk61/maswnv4agxFZTKoZ2sKZCfY"
            "gc49Fp3/2Y1ckgExXU4Y+6WP3z8xACfEo6B3OBbWnr5M8UkC1d0kDrFjQJp5XMyf680wCQ6obhxO"
            "Vs/IgTVKX0lBRCU0PpvJCVzYQhZVcumn6+rUUikUb0WqsPeOhOPp09n0BBJ4EHqOXnzfQgZOT0Ct"
            "cSq4fRgl291G6bf0MNCMyITyW3/gVLguNIIXv6IhhvhLWRLnnSchrTwJBSo9tO96AizNTYIa6VdM"
            "qJ8S/CurxhwqvMEYuYcRh6Zw/jWPWXBYXIvcvb6Q/UvyMWo7NOJF9/lk0clgtBoVp0muzqClqUsn"
            "74izvluFOJkYTvaCMGfLVCieyOiieSs1oUTqIX0t4kq/BW9EV3dDdD8uBZKioWhfb4L8+s1wRycY"
            "xwxX0WbvHnKxehK/TxyBwMKNdO6XGzhyQAvv37wKfeP/4gyVFeh6wRnz6rggaEplVhfKwPNeKTSs"
            "0qIFkXOx/PhzfBDkgX8J3tJp09iA/0f/A0kVSj8="
        ),
    },
}

# attnfuzz's float64 oracle, computed when this script was written: the exact results
# (reference() below recomputes them plainly and must agree to 1e-9) and the bound
# on each element's error, derived from the dtype, the lengths of the sums and the
# values.  The LSE is checked if the implementation returns one.
WANT = {
    "out": {
        "dtype": torch.float64, "shape": (1, 1, 64, 16), "stride": (1024, 1024, 16, 1),
        "offset": 0, "numel": 1024,  # 0 of them NaN
        "data": (
            "eNoNl/c/FWwYhxVlayjRkMwIISvJbZSQlxIVmmYiIaVFkWjYhVCyZXOy130c8xjHOcfeIzNZUbLq"
            "9Q88zw/P57mu71U+7PRdbU8LFgd2cKU29wILt/hPtcwp3O1HNt/ZP45fp2MZEkwX0Hoquij5wRCa"
            "xw/febOLBGKxpBfX1JtgatDY5roHAs/mbNvAfgLYKIr/ekGbA9eizXc1m3tR8/TH8vPP4kFgIbDu"
            "8qMHYNW1Ms4t2IEfw2Z0j+yIh8y0d1LPlNqwYqF/p0J4EsqcWSlv3vQNjzhPryRIz6ILbXfBhTdB"
            "sFt3pnpUYxyHUs53/vw3AMmGo+sMXsPwi9mjeNNkJ4gpBhAeiBfAPvObZbLq83C+5/S87H9E/O+4"
            "ZPV14UmgRic9iBScBjuRI+Ff5Otxv/v5jrMMraDFeTOz26sLHU/N2D4qqITZrjrm5rTvKPfP9EHv"
            "jVGsM+8zjSvMA91DKuLe8mNYs9bNIR67cS9Ft0RGaxIqvX1Sh9o7gFMz8ag7oQHIO967FO6bhW8X"
            "TT1vyNOhpy2HdPvHMHixfy5trBuF83PSedcdiUhl2t7wk9gJZ6l2rexKNKzSW/YI9B+AMYl5ywfL"
            "MWjHYrW5WqcEPSzWvcy1fqMQr39ExK5R3H7jhcUQTx8YMavoOreMwND1L1v2LlljX7sfp/9CO9re"
            "OlxcTJ+DT8oO1ZucWoFh/5RY0mM3tHmbsJpiNQhfI1wYd2wloZ3EV8Lvv1QooJb8i2cMBRs/fr04"
            "6TyY1DylOLW7B9viRT6fPD2E179IlU+GDmDEQ3TjJ3Rj/f4RVU/pYqhUrastSWgA/6xIQpwGGY0X"
            "Utqe8FaBY8eNI4OqQxDJl7y+lb0LeB/uD9thVgOj2+QKogqH4aHKG9HwonCQk2/edUS1GULl+RXL"
            "bT3wS7Rosp10E2zdosTjMDWIdXdvXznlMoiCnGfG/97+iQmlJ//ytwxioB5S8jqqISdxIidfvwPu"
            "Bh6pXp0qw1QxQ2/jHyTUjLFPlL40Aa9yF5XsneIhlsP9k6xuHfoes2o9JtACMmyW56fPV2BxUlFP"
            "0OMM/KFLVTEzaYC2QLwbqNiND2YSaOKW0/iraN+Tafd+xGnL5CPbq5AUJpT6WboVjRbjzTwvNMFK"
            "HuVL19gIpHqOKSiYJKKFGA+JWl4HESsHrx781QxxjfNqL65XwAXn+I/G3wpwxFik/Nh6OXxhzv7L"
            "3FiATMxP72b/Fw6/bK3IqjtIcNOxpj/fngqi1N/aP+e7MfL0/RaZX4Oo6EJeChaeRG99oe+lDlVo"
            "ZMVVpeqWjLYqrRa070ZQfkZdUT08DT7Jsumz3SKAz9VEYnXqB/geU6jueLUZ9sKFsLfrPbios8md"
            "UyIFHlgTXz0W7kDtd9x2jRpVmHtkW72iewAsbKM4v79Wi3ZaBnmyRvM4rmg2UybThzk6xIlg6Sr8"
            "lPntJVWOjudSF2SNR8iQYKGx+bfgEHhF9bFnZRYBT99qx4QsFcDtwsRh4Q6IOkfMTOqvAiMnlwKW"
            "oI3/Vmnrq/AuFP3oyoN+R6n479R4iX1JBUYIyn6r1fLDhfCyd5cnS2HRZKedbM4khpz4x05YmMRf"
            "ZtHNJwMGkH+LZblZHgVNWPcR5SbIaK/4Q3XUOQb3uDN5ydwtwL8x499dlKuBRzRSw3qsCTQ+c9+U"
            "5KtDi6e0sAftzRh+5pxJeE8s6Ohq80TspeEHsXtS1Ddd+Cix553A7nrkfZ1n/0z/JYoH+Dgd7R3A"
            "6FeZQ0Zz7SinZnBzzW0Ikw0XZ0WEKJgWyHnlK6kZB8JvhDbHJME4SSs+UrUE33TO+hd0FqP6lOeI"
            "D0snbM1kP3iBKw/OSfSRRa/l4BVuPiMPr3rQuHuti3KYjAyXx/i6J2h4yvb1iWuWvWhoGB/U7NOK"
            "28qjr16g9OCFB8/7fhgQ8LMkVeUHIxFfH5p9/tyWjJ7GUQ+3l9Hxc39e1cx0NehdqhqXTImB2UdD"
            "NHmZSkz4W2DrHNkDHacUJNZGM8Daw2RAvrAOHixtXq08Q4bkCWbflEP1qLf6J7ghmI7z4i6WlBw6"
            "zh2sqJUppWFrb9FdE/IoNghlTp4hFMN32kuGe4ZFSJW7LfJz6iOsCj/utyTVo7Z96WXPU43g+Ivy"
            "jt3tG/a9LF1WrisGwwpbIWd1OrD5tTXpONSCaHKyNLCWQW10m43o5jqcneD8KalLxd/LH7f8WiHh"
            "s7WsMSYKHT2MHC0od7+hw9J37+jkHly7sUq6V1kAgmHmaxfiWuEmwfLQubftqFm8qC/wpRCdXNfv"
            "r9TnguIlw7VTXHVg8jV9TbA+Cd49aqxdu9YB1q+3hw9N9gBHaWIqb24lVlm7l3q+qoMhlpeLZit0"
            "/HEu+qNH0gCyBu54fTK3Ex3GtgQ4XS0GXfGBZAvvQWxXbvExkC4Do6YtoVobPMrfy7bbZqQVP8Hh"
            "M2ZdjViCdB5LIwLQZH/eEtlUg777F4RT+grwyhGh/dli7XCT6aZTi3sXcFuW7Bcra8eE1EvCJyVq"
            "Ua4qWsTJshoPH3BjV4jLRfnFP3Zb+WmorPr2Z+vhepzQYrTev30QuUoUwbuoDe1KOOSc+79h7xoH"
            "0ak2HSg/Qg+rcobC4EF54ZGqPuRTz6IpsVTir9S50PM8kfDIKUs5siYZ55N7drW/rMetv6fohxVa"
            "sfQYaJzRqoYIMY96SdU+lFkgSSS+JGKhrWVJr2YvCujzjvtk1+IWx/+C9j4cx38hGoV012zsLfWv"
            "7TbuRT7GqvOfOkMhd2GTTI1KDja/P95L20PDPOE7FxPd69HogulgYl0NvL5+qWVVlQj7nThNO4Zp"
            "6MyXV8802orWRe7ii1o0tOrmM2FSHkCRh1xFjmeJ+Lxb9G7h4W9YIMR9fkmzGM+XOav+M+zH7vS4"
            "GA+JXrRlfTcfevsbpkLMrjtPenEzm5mfHqUTi/gVkqoECJD1LdCX2zUbJNu6+rb8SEDdr0Y7VhOG"
            "4Z0Jl+bEyy4QZWEvT5wthJ9FFaa3hprwVVnQZtXNfkhvyyubSezG3PTbNlbLA0i467LnuUEVct5S"
            "y4l61oDF6Vyh0uOFKJCWtK+1qQkPimm9y0luwUVuV3tYbkXzrmNH5hMrYMT6jUKRSxUyVU8F7h6t"
            "xdJV3oEtJgPAcHmbVKd8CsRrfaC0ydJQXCDNh6DiBWEVhkbFj+mY8/nv2rXBDuxU+HqCSBvFahVp"
            "wnoMFcY9KwSYpL4h3/DjL4zhbZjqZtP+THAaGdj8mE2oVFyU7HxpVpqOD/RZDfT300Dt5B+G3oA2"
            "9F2SOm5+bhgkHZNIS0dGwUj9xqaKBQp0Lv8N+lNogUPKuxNPLo9hnqtIec6WDBg9eePFveoKPKv3"
            "pdJBMB9repqJV5IrMObx2xMMjGRkd7HnOsUciSzt5/a/ixvCB3Fb9upxVeBqRMbU30YyCki9Y6MF"
            "piLDHH+3cxAVhzj7z/frt4JRnOIL3sd1wOa6YMUo2gk+ZEF5m1EicHwvsDk44o2qOc0ZV/w8sagg"
            "ZkdVOcKTlQyaCFMCXF9XCKFKkzGs64CdUmo5EvRTvAbeDmO518l+PsEBDP+7+Z/lejPejdh99d1t"
            "OkZlnNJuqWvBGMGhLIcnBcgpzyinwkXCmB0u42pqGx4NnO2xbS7FpRU44yjfjJvUdGiD37uh90Ej"
            "kS+AjknieXXhfS24X/N809WzeThMZexhiLIHL4zeG3KhFgnZaeuqYa34YsW+5lpBD4aqHC9S46xG"
            "rWe3zBOI1ejhkrj7m3swkj54JXIEJiOry5NN79miMeJVIp8Iby0omqGcuQ8JoufCdxhdpGOwg7Ar"
            "3bkJtP4T9aaG0rE26j23zlwLHqgXK1u70YOMrwxHV5TqsXlXzoyCUxtuSVGsi4kuQqdhXke7A524"
            "I8+D4+8OAupK7NN2301B3uLfk3PTHriDKsb2LDULRw7HunL7VkGfyjRle3YtaLxjYW0UzoGDfGQF"
            "XZMSVEjMXFksJKDeOJs945cN/wxZPfj17izsvbebf/xDHVYsS1p5bO3Gwx797OtZZHxxJXtt4loo"
            "OkxGShFbO7CCcKfi0c0v2D2qP52q3I5tTMJS3lF+kH8+PYBUHowPB1/kqhNa4c7OxV/HK9NRMk9B"
            "i0slDlR5Q7Z4O7gj45XgGAMKEekJzHnVQjXwfmRHwi8BEnR+zTkhuMG9PrnmPUsp1XjtWPbCI+N7"
            "GG/yKldzNwV0jKYq7SY/oZ/jVGSpXyX0KYeeXTNuReoNPYN/WRRIyvbwYA0ZwgFl/8/2g1QwOeNC"
            "cFTogC2VtY+SL2cB4+O10udZdZArJH5SjNwA0ywifCt2YUDPKtQfH8vH98ZHr5BC0lHC52DQh/+q"
            "sYJp/MGcYyG+KEpXKnlIQ6NS75FdG+/juZL7JjejDC9apzxLD61Gqmbsx/H8zzBS1nTi0a80tPvI"
            "ISlYRMTjdNoXswgqzF8hY6cbCbwPqtazKLag23/S/JVdnRB5rLuA8D4WzfaM/0wczcEUK3/fP3f6"
            "sXP6hhU7MRcO5H2SF5YggUegOCvTMQRGj2nVEp1OZEfZtLyhEpyb3TSSzZaDNj+NXKJyhuCdV8ga"
            "o3gz8H3N26ZeQIGlIds7jS5tMDe7zrlSQMdXvfJuLI19OP66ICVFtB9F2EO070uU4JXP7QVC76jQ"
            "0Ep6c2tXBRZ2ZdurKzThs6TDPlel6lHluU+UgVQwiPr/C8tPLECW2JxT81vbwdPUNP+vdzEmfUiu"
            "Zb0VD2P9Q8c8c3OQy7zr5sDbOnCPNFPc2t0OM6SiB37fGrB3af3zg7g67H9L2XMivgJ3PlJXIh6r"
            "QzZ8/4zGFAnNixkWN95XI08RadvIQBVk2Swx7NszjC/aQ3mkf8fAmLX+qgRHL/qtHKdb3IwD8SAR"
            "iwOtX8H0z0MLOk8DyNu8/b50/QPaMo4vX3pJg+nb2Yv7jnZDnL4XxX6uAen8K6vnsukYQDGWz3Xp"
            "RulwzzE7u1q0AMvgnv2xYB3mypDkm4dBF07nNjrSkWOtPHXkNxUpKYnWZx3bcEGBGvDjWAhoB4Ru"
            "en2pGA1/8Kc/E2jE5sv5/1rmG4EvLXbEMScL83M4W567BIFXhnP53ROtQBW9tT7y0AcaNqs4/NCo"
            "xKt6/Oa/yJ3AK8LSaZd5C7XblJ/cOEdCC8GJyz0ORNypf8JisImOp6Rfn/st1IEif70WKj2I0Hmw"
            "1MXGho4W04tzuYRmeCqmg6XfwzDMRCHEyJQCwrvaPp/orsKt1bfPM2m2A8HXViK/jAxF2zKKivLL"
            "8NhuDdXp2y1IvDV2d/ltCx7s1lcz+pmMf/YoWfIHb5xvPqwdfLkKH3lL/em/0Yd6spwPjYxqkLmc"
            "Zb/WegEeybryNOt9C26b3ZF1+n0fOCt/M8u5T4L8jk1GYaUfMMogTV9HLgfoArrxdXfawPTuiu0M"
            "JQXt1CKDPh9swfHR1RjVSgLqd13kup0XBAZkYf68r1/xxM4/7xKCWmDA0lA8OdAb3N7s9xJxa8ec"
            "76JVVSM03OU+8+nY0QqYmI17vOTfhPxXp+x4Tdqg5KnjnhxyGQgr6EpzlJfC75XCZC0rMt5oSC3+"
            "0NkJ0n0VHVFviyDjylVXtbRcvKNrUOZDJgLRVHfTj+6HGN92ZmDIrBI8Vxdia861wHeB8ujV+ny0"
            "ntZJqaB14OH+0/mFQ1W4fJ6zdWWkAar3GN44rlQOlipRevSrg3ArJI/LvLsTWnKl5qMmJ+C9QY5Y"
            "msR9vP/He/pM0CCYHcE8MKXi9l6GM4naj6CSg134inkxsvBr1E66liL1lPAXmXtJIH6KZuz1MRev"
            "+Whf2epCAKFHFnPsOpXIW1RbprU7FLrCHkbPXOpDq/mn9V+U5vDuDLfQ6t+vOFF0yY3WlQjxnIFZ"
            "KnyWkKXY1/hnvAFZJD4JuLER4MTCwPIhQj283zt4iRiVhy5jMsGbjmbAOaGy6ZT3dJBz8ed5se8z"
            "BgoLJVYU1kKv93K95pM6jPsuoP74dgku1rOV7WezwlXZpU1mWwuwaNpDQInajuMSpq8FzJqg0+2G"
            "VsONGrx05bT4zqwGyNlc5/2EQsW2pa2uykWdEGKq2j55ngZ7y+u4iafJsHfHwnKcVD729xYE7da7"
            "iynlA/+2xGVAxmtLgcXfX6An0/QsN2c80i/qXzgXHQBHVI9S6db9CJQolr1/UsDVub0sd2gYn43O"
            "kB5pEyD92Ywdn04YivgcauGiRMAA58MMJwYCDPbG0E8KdEDaqvFRxpI8+JUsMkB62IjhbXm3s5c3"
            "eo+7ZLd3igmyEj70dEdTMb1A8nawRzI4zyb6h/1HA0m1Pz4ffWnI8cvRt2E9EHZXtJOYNAex8CTd"
            "L26cgsldXyrjXtFhF7PKiCkrCVv6lkzEPD2BKHRHtaKZisuFtL1P491RYWsl56pRJdieErOI2dyI"
            "rt0prLastXh/Wba8mmkMLBhuDdpFlkMc/blnzb12KDBWER8LImLjf/J/prgjsPBN+fVrX9ORbctI"
            "S8qvjR3DLzvDvbH/5b73uq3XF8L8p+VcaYtOzCSv6+0+OQa9OQZzFgY9uJILlc6/h2G6rWR/6TwJ"
            "G+oUhP1dOmBVY9nGbCAN78+MpWSkdWL5pMlf7W1NYDJ4Lany8yjO+evF9p8iopHX86syLP14rLj1"
            "wthML5ortJje/UiBUqUlLTWT8ygV3s7Jzz8E3IkOD6W2RiMvq0dz5aEP+PhWulzB7XiYcgfnoKA+"
            "sAyFOuKlWDCyGr5m7HcTExIi7/96mA1Z2hFMkjWfgEQgx46bVIPm4taEwvjGjZ6xmuj9EYuT1+9U"
            "sueQcVcz5fTW36246WnCtqfhNJToC43m3zmElfqvT4jp1sKxvyNr1qRsjBYjHChhbsC+YNWzihn1"
            "mK7dXSG7rw72vTk4Pfs1B4N21TzJTapCBj6/WAVHxOWwlfJyCyqEVvc7U/9s8M2CI4RfPRJNNBSO"
            "TBvlgNd/18wX4rNxn3aAwauvjXgivkbpEWs6OlxUa1u4OIJMDjPfw7MT8QpdknGOzw/9zxx9cIE3"
            "E042vFQvePARILtS32k8AXZVikx1CNZAPPk2gecmGXg/OPDYmiGWB3nyKfnWwrn9zMVDT+uRJ7NN"
            "l3T/K5KXXVsvLL7F4oWnLL97WjCuVnn+p1oTuvmdrnqSVgGDEoWnFxLqcYCJW3QlCGFe0ihq61Mi"
            "HtXjdE8NaQXPLlHb6j0bO6PpNeNH+1Ywr/mhk3ykCX2E2c+2rpTDo7zxJ1H6TShHSHjF0BaPRvyF"
            "5W7b64HS57eLwEDCv7VdnBIvk4GXPVlxrxIR1xvymFhP3oKZKsf21JdtWP/CoLlLow0fm1xkPyma"
            "CxXXCM/PFDWgjj/zMz9CFRiiVe7OK+34gST7MYdSCuqtK9b6he3AdoTm3T+fiIuZrD1OFxJBuCwi"
            "+9j6V9CO2NwiHx8FGolFW/os6vHyJQnr99/zQeiJRRkbczuqlcw2jZHIuOP+47WR0UgwbREJ17Wl"
            "YsHyP3qoBMKt2qPnbzdudOuAmLXUixz4xEAU0N/gbcxjyz3HO4vgeseJ7y5O2fBWONzO93ELREjs"
            "FnkcTMBo4Y+h/G+/wP0iwZE9PHmo8/7CNkueGgxz35ec1lQPMjy09fBz8eDz8yFj2syG/9Xqo9Jb"
            "Q4HMonYtn5GKMxxK5SuirXDkpVrzl6JAzBgrAr+xFCzO79XOiGvGi08KygaYiuBdoHt7f1MHmK1L"
            "cDLHFmLzqbLX5UdIqKXOs0x4FgL7AgItLt8nYZ111ia9+WI46em8TXWIhJLHA4Qn6hFng8dfC00U"
            "os1Flfy9F/Sg5PpjVmf7NDyXqTX1/FUxljQdGR+drkRVWZfhadY2cOLtPHRHg4g21M290uRPCJ/5"
            "rCkHu4GzNCysxqIUVt7PCbw92YLLXRrMRpcrQKg6WuqCQRnKjF0+3s7UiXx2ktX+/vlw6dDxdO47"
            "JNT3Wz07dbkHn7Zs1s35WgHXUgYyGierkVvzWVHrSh5sPhH4t8WxAifSfReYxyvhpCZlKty/Grbt"
            "Hyse/0nb8DKkTzzJxBdE1UjBvCpQuHFYZ8arDteUH20/HFKE+RS1ZymLxchX4N2dN58FBaW+U/IC"
            "H/AOe51GbP4GJxeMDM9+HUPS+E80yX0Oa6pyO8V5SlG1T4UlY1c0zFhY5r2o6cPF+z3yhwNzQFqz"
            "0z3etwPmNumS9HU64Kwr8WLuXC1qHTpbHrJjDNwsR407U+Pxzq3FdPmDaSAl4XU3qLsU4/WDj76o"
            "o8HS5pkJOaVudPhT68XUUYW3wp9ed48YRtmwvZO2ehUwY2D79V9ZJ9bfcxbMwxrcerWXYvGvGV0y"
            "fc39pasxrsyuPEFxGBxOLFW5G32D6Z5TPTPBNDByPiXF5dANX3cZik87FUDM6r8Gxe6NXSRiYCh9"
            "sQBLnxO5/f2q4dCNM8fHh6MgOkHmeNn9AiTFHVoVlGxHK9PqveLSLagaFBySYdyGEoJbojhkKuCl"
            "3JTA4PFs9HEfnau414aXA4KPiVc14/U5OanC/iScnjx4xD0JIeTyqZjMlXT4pny2n872Elea97hk"
            "QiG05Hmus5vRUV6gfsvD+6k4OOPnzq6Xh98dL8g3jRZgxNGndpTeDiyx4NO47loDyvdf9ojlUbEU"
            "g2DbQAWWkUe4d7nW4EepnXRzh2bImTb8J9LcDg0+oklXzOhQyS/aKvKtCU7Rdys2XSkHroH7C33l"
            "XihOMRC+2BuHIwfSr/6xr8TondpfiM+akPXtNuV/ZyPh7jfp0kQCAbUM10plOWqx223y2kv/CnQN"
            "iEuQFqTi/Ct6UpPmV9is5OfQHlWM+7OtxAS934OSaa2B5wMyWvHw+WhHBKPlxzPWwhOtwPHCN4dL"
            "4QE4vmLZHc7TjHtGCb7xzqXARxB4Z/+KiIIKT7+Ye9SgbgBvi3hFDf5ZOhyjfrgcvzfZvPoW0YKt"
            "bxP2loTVw7q8epteUiXq4cVL5eJl4LyqM/a+MxKJGfWPpKOKwVh4/Tk1hQpOaa1kzrPdcOOUswFD"
            "wEb/TIVmUUl0MNxO2eRZ/Rq4WP5Wd9bm4uIjh8DL+lnINDzgrFFSijwT8Es5pBqzswKXnPpq0CGG"
            "7a7BTzLqi9o8j9g+CKEdzdsl7tTi4aUFOQXvSjz9z7ir6FwJqsk9KZbobIcD7JJdbJ21OFFO4+/1"
            "IMExHHCSjumC9Pn/4snLOcB+I3/b2ct22MFnITFfkYYHZHqfqBokwsIMr1FscQk0mvleIPjE4/jk"
            "qxf2rEUoudKrP7NzGMnBZttk+Cvw+lkPRf9D42j+h6NJJDcJXfccDCuOj8XmHeGcxaN1uG64sBIQ"
            "VgOpFtRr9hu+86jWuChs4gT3bmrLaISRETQ9aCJX67Fa5mw8s1sxeIgLr56taUeV7f7bv3zKxncf"
            "BJ+wjwVj7H4hlc9329DYKdToQCIdl6WixNWE7TFoMHPpjwoNcU8BrxlXNepka9vurcvHiMwzFnSH"
            "SnjuFH0760QhmIsZLrsbNkLcax4ZtZgWODgRdHtJIR+4OCW7JiqroOjlWWbbtAawu6k2u+sUGY/G"
            "ym0ae94MP/jaLKOii3Hzg6FXNjZNqOH0MJj2XwtupxHTkvd0wBbHtYNiPxuwuNeFS2EkD0cytVWs"
            "PUywKoncYLDBOwLQe8I4qfDs0TH1yI2evnZ73NMzNAk6DOkP4xhcMRkivttw5mKMgnRT5mwsxPK+"
            "Cc8Or8KA7p3CsgsEiC9Yrzy5zQE/ST16Jplfjv+yop8cMaLjfePnj/XfRGIka47rlbY69IuY/XDg"
            "3Cv07yRpuvwqRnKSj8298HTwUq2q3Z8oiQwmSgNDe7LB9M6LA0xFNeC3p/SPhzEZ8n1MhCQys5Fy"
            "6Smx+l4FZJwZLHnRF4LdZXqiefuI4PYRJVSEEORmxbcmbCKieddaoLpbB2bvSTP8JB+Dv2UV4282"
            "UHGQR2SrFE8U/o4+Wrv140YPhLjuOv80CbpKWDV5LtYA+2xthBFPIbTrR11pcMgG47epzxqmqPBy"
            "Pd5O+YsvhjCpSXJzk8FeZ8dWOikL3/Qucw0b1YK35rTn7TehoPlLf/2JRz7MftwrpTJIx0aTK/mO"
            "nwuh7eDn60N/BzCa11IiiIOEE2Gvedw56lBQr17qvTkF7r2oX9Oov4mfGAlqXowUOHmYRUllTylI"
            "dBi8CWPKQYuJvLfbP+fi82NsPBPKsqBnJbat8FMxjjG6v8zwy0cOdc5XWx7T0N38KRQo52Ck4zFm"
            "Sl8XClmry5yv74G7QdKH/RZz8La3kr/BeC4+WdwiqnqvGj9nHvhOe54J9pzvRGldeVj76UNZFRsJ"
            "ZJwFxmer+8FuVNg/v7ED7lzc5cZsVQEewYXEyZUS0PycYz2ZmA1s+Zd8mcUaMOyaQo2TUhAUSIrp"
            "lW4mYgATMUBrugPH4kxf6TjmY6VKSVYvTyNGPSWOmb8Kg/DRA5x1sh2olL5kM094D8iRS83wroHj"
            "ltffr2vWgq6dcbtY2SckNc/s/KjcB7dbG9V020vxx1TlaVWOamhMNzVkacnDiujtXBPT9fA/zogi"
            "CA=="
        ),
    },
    "lse": {
        "dtype": torch.float64, "shape": (1, 1, 64), "stride": (64, 64, 1),
        "offset": 0, "numel": 64,  # 0 of them NaN
        "data": (
            "eNoBAAL//QMjpM/a7PQ/SEn2H3RcAECWXnqPjVz8Px48qLc9nf4/kGjIn96pAEA64iC56U8KQNRQ"
            "3L13sQNAbkvB1a72BkCMssm5itoBQLLjCeq/owlARNFI/+V0B0Ak5vea+e8HQAboIfzQIAZAcsgd"
            "5G0vB0BcXCkTAEcLQLB/B7AOkQpAgIWWecKvCkCIsr/47KMKQDXdDo1lTwpAuBdJkJdCEEDmFRsg"
            "4DMLQGz6q0QUjA9A2DUr2JzbCkCInje5FcwLQIQX52OfOwxAfHYzArniDEDA0q2VEvINQGaexywV"
            "NhBAJBhx13SNC0CSmUuCsVkOQMC6ZlzLpg9AJj0G8MD+D0AnQ6ohzfcPQJ633Zvnzg9AatXqqSeX"
            "EEAK9H6hXXoRQB1qtpbTHQ9AQhRgzQKYEUA2fRD3VOQRQCK1wlWKHRJARPG6nyutEUB5lqTePT4R"
            "QPxbGDU1aRFAfj0Ho58DEUD1H1guxFISQChHK/rbhxBAiAM16wK1EEC6TImGhOEQQNTpQC4ITxJA"
            "nGyuPzDdEUB1oh30KNMUQHbrmo1lFRNA1pBVa7DqEUCajQOZ68MQQFANJdm84RFAKAqqeEddEkAh"
            "vlFmFiIVQMzGIiHYixJAHLGdjBbIEUA1IdEWNU8RQABKVsrM4xFAJO5kTk0GEkDtMsakveESQEym"
            "z9NeKxJAOoTXPg=="
        ),
    },
}
RESULT_DTYPE = {"out": torch.float32, "lse": torch.float32}
BOUND = {
    "out": {
        "dtype": torch.float64, "shape": (1, 1, 64, 16), "stride": (1024, 1024, 16, 1),
        "offset": 0, "numel": 1024,  # 0 of them NaN
        "data": (
            "eNoVmIdfzf8fxW9DQygUUaIQURnpi+J8KKVJSWmqSElFCSmkIUXSoGgZyWqJUpKMEjJCmlSa2nX3"
            "rvv7/P6B+/i8X6/zOuc8r0KFZcEnny6cTVw6lZtMRYeqePBzBXHiCd96UWQ7A8dLcTQrkkLEtWU/"
            "PaY/hr75manVrwfgU99e3GcthP1fu4Knjd9gZeHf8SKfirei9pg5WUJIqMz9pN89gKaVejtfeo9D"
            "sWrX8Ff2JBglQdfdt/Zi1UKTLvHdI3gl9K1sbhjARkn9QMXZ/UjrpkwFqlEIF6XHqdFnxAiH5qGJ"
            "TR4SxLTZay5kTuPDpSan25onQPfIHi0pIxni/XUTd+vYUZgcqL2ydy4VDgNtfXYuEkSfHc9VlU/D"
            "9hu9BtrJIiiYd1u2zpAkBFqlVn+ce5FYMEv6oYYAQ34j39UxhInUpBrlX6M45GJjl+QpgpWE9ZD8"
            "JQoRri7+bvqIGDH5Tdsgv5uFqVcB/y36wIHRXMpZKZoEUdYptWSobwxNS6tk5i8egoMrQ7FIU4RI"
            "kz1O9sdYkD8fHl75fQoh7CvXxoopRL+ST1vZjzZonH7qEviBCUm/XdPPVPShb8J37NcDKq68Dfkk"
            "kcqFY2P74ifrhZiS/PCiNH4aUewb62KQwcCGyuBdFX1USO2wz3pTw4dvfF+HQXYHPrmfuW44jY43"
            "Gmpt0jQRHqpXlt6VEIA9tPTo7nMsGB5MnnfgIx87V95STdVtga9nhJz2vBFIuEbvFy0Yg49p+xZF"
            "+3+Y4yLM3ljBwmTX6zE9+hRu1tju3XxZhMfq75/ff0ZFnnkroZbLgtoVt7oyAwrhasNdbMaiwbB5"
            "amjO+hFILShvMSUYMH89U5VOZSNiwGRZrD8fXG3Bj/M/6JhNcTu8vqcDX6PD1urIM1GuPf55Q80E"
            "ar0jXl60YGB9Ysq6kNkUQvbCnFzFbHHCnF4Q5n5ekni55rFKsz0NG8wfBZjE0JCzvplm6CBC3dVD"
            "SvMq++Gm43q7toCKlf8qZLIu8xCoEfT8F5+HWXEOR/Zc4kNz6ZsTjTZ8rKy8nWy45h9Wf5z8cSSO"
            "jj/dkd0zd9GxSaz0XrMdG8yrfVydABFqDihES6wUJ45dj9DbY87HtU/rRr96DiLWe31rSQkNBpar"
            "z2RJUIgbAh2acz4XMqxjt2rZA0jZUs9uecKCV+q8As3LVOxWOr28nphCl+qeoE36PLjVVQevGexH"
            "+sxNzUsPMdHyyvx4g+8EBh8eji1QoOJ3dni9uDEbb3suOPNNBZAy1GLfjOTjpnL4U2/uCHZrZzqt"
            "Nh+CfdGzETdyvh63sxLmV9DwV1mt8YkEFXKFUTmz2rkQl8zvKrRmYPiH7uKLOzjwWhdq7z2TgVmO"
            "0fmdSmOg3SD2n+BQEeSWwg2xm0CWjr33kudcqK4MZkkfpxBeYRkR8oumcJ3eXOsfK0RCoEf6uZhB"
            "+M/30brsNwzd7sn/FOL5EPSZ1LYI6GAiefofy0HkL5TrZwwzcGbGQ93WI1TI19cOlkRy0Sa+vvbh"
            "Wh68Ql7U6D8bhN6FRS337ejYIHPlhOEMJmo2WsWqiqioCq58pxRO6lbkUtXnLEY0nHAUG9SZRHCE"
            "dOTMHcN4+vPPvNBdI0hdKXHTcFKAj6Ofyg3u0aHiPEfy0ugQHs/YoalqwMSjfYtqO3NpWFy01CvH"
            "kw+LbJfADQwGJuvLiwcv0OE64TeWSc7D5rX64uhkGsq+hl/8voGKynRuWO5VJkZLElR+Xefj+roK"
            "U63vk0jN+JnY8WAMtUodvPRaKqzFk56Hp7Kg4q+49e5FGlB7pHrP/RH8TXlb87p/gvS/kKXEDDYK"
            "SpqMnDazYSCmNeLaS+5Hd3z5k4oxSC5rPGh8hQqV4exnt2qY0FbvuZixl4OXLB/NFSfYMBsw0ZMy"
            "46JnOHJnpoc44VDcUCcxnw7rbuHRaz0slETl57YOs3Dds39UajYfUfaWf2Sf0NCd1pxQXkne38en"
            "OXvEuJCAzuXWnxwUL9753tOejXr3irGsQRoyjx/2VL/DgFKS5cYZekwsOy54kBIlRMDdI7m96Xzc"
            "F5Ppq1cl99BlvtSsjY20c1uz7V5MQNx26UHRDQZ+TswpKXSdxOct1ieC7QRoDVSbnu00BE+LdyEV"
            "CcMIKPlbdVuJDrc100QTNznQCt3R5szmISSsvW/txzEkxv++djWXDkeu2ER14CjKdlAOcfspxP1j"
            "hLekFQPftmzzf1bDQ+G+uYlrUiQIZc2BWcesqZhFeyt6aUyD+n0nlX8eDESLgnKipfj4sSxbve8F"
            "Dfo2XFGQxQQeJJgP13QKYKJhLD5uzcKq2JaaI/t42DxHUWX68Aj462tbB8u5kFRkvQ5oJnMicLkg"
            "gMPBL7FY1aXOXLh+cNgPHR6kMszCdRaKUN7an/GRT0X3zWcrNtowINOZISPisnA7909qbD4DWOpn"
            "69bNwMnIF9MrIuhYe//3Tanzk7BSjzcOVRCAkNz4ls7iwks23rlQsR/Fuj+09D9R8emkqWr0GA/m"
            "h24PmA0x4KXz3+erlnQEm49lL9Xgod7U5WnQJgpxZHLxySeHx6F1XFs2wJuG072mU5Zn+KiVGDut"
            "qkrFUeNF/3R1OFBoU2u4c3IUEX4t71d4cnFnlqi9IJONW5khmSX+LBwRS6ccT2DA7NDEkcbzLCRn"
            "OCpXSjKxKz/ddstjLtIM3KRXWPCQ0aHsUKbDAqGpvmQnqZ/t3YpbqwSjmNhvTXn3fQw2tmnCX+T9"
            "hxdpnMjrncDGvBlMYjsd/i377N40DIJb6CS5+wULkcMivtU5JlxbiMo+Bz7kBi7xpwppOPFp5niQ"
            "IR2rv0zpuktw4dy/wO9uMAPsXkFrXSoDpyfb4olCHv5KRI4WFIkTzoXJnz+epqOlq9S0aTYL53Pk"
            "TC+fGcdXrcvHaa4sXNyc7zEpYKN/6Ap2XWeBVh5qfPMFhRCL9dYbuMZBdPWZ7dV1ArTF2jGsj42h"
            "3D5smk8gE1ze0WvdVmSeOfhbGv1jo6W5YWuciIWQt0VRFXmTWEep+tS2SIKQ7/JZ3vuUBjOl3oAL"
            "tXRYUA68DrjExPuGpL6Yezwk/Gh3XvGFhajZudQnmUyslTywPqh/CkuGfH1+hYiQprY/TueCEL7/"
            "revpPs1C0Y47cZFqHDL//OS+/51EtSz9h+lqPi4mftbPuTIFSQcnVfOaSRzduiBWokGKYL6YuWz5"
            "KipWrCk5RTgMId5oSEW+kIPWiPWny7x4sL4y77njVT6E0o7vLpSIoNJb76/2QQgO8d381nIOHpvc"
            "7rzdKEbc8LdKTlSnI7/u+5fNs1jIlJ3cUzfIhJu7+dnWcBYGNGa3ELeYmPEz4r53MhcW17WiI5ym"
            "8OriwKJtwzRcO/14eakHG6mx70bqLAV4PXv+UY3zAvi0V16rrmNhxu/zIxPSdPAi59+9cpaPsFny"
            "E4ObyO87feSSzxgHd9p/mGY7jSNH4oqgERzMblX+ccyJiYgPCe12pB/UvNo0TSqOge6A7d/k0iiE"
            "RYnBt7X5Auyeq/15di4TihPeIQJjOhjnhP6nLfiI3l73T8FjFDdCwms0vel45ftI+k3oGG457k1X"
            "Vhfij3K7VJc1eUdMr223/06h4xQR+1uL9FcirkVE8LAkXX3OjGAOPo3QKgpWMZE4JaFRxqOj52zJ"
            "NwWFKWiuEMWuaZjEuSeuTssf0XHk8sj9h0/p6L5/xMjGmY2beauNdEj/fnr10h8TMEAvTVeQKmdC"
            "6yflU0Q5HzNuS8f6knP6vE1/nRSZ53XirPlzddhomDrTqMpkQ5T6kpWuykaemHHvy2wmogsyk241"
            "07EmX+z+UV8WzJr8Czd0kv3lStdQ/QgDKluPMTb20vFWW+7q4q0MeIa2vlrkQ8V8t6cqLV9pcIwb"
            "ln2sTcWlcIqqLzm3DblrZ19opGPr8QwP6Q0sTDuhseJ6FBNno76tO9LHgdhY/6RzOw/a7s4On+sF"
            "cOos8tnBpeJH2ippuywenqv+kTUpFGJg8/GVFXFs8AUrt3vpcXG18l6SuDcLUov2LJTUZyPXYE6x"
            "/1EGTv2XOWbcw4NFituXmF4BKi6VK+THcHA++LRYmTQTyy/7LD41m4OzcoWv5m3mYWFK1+OUY2S+"
            "V01mun2iYZNKb/fYDTrumiYpNCTy0eN0Ibe+QYyI39Wr3aHJRezBB+NnSb013mIcXs/go+b4DAtF"
            "VTFCUWLJzR7yHhMHC0LC3jBxbli4VfYIF96TV2eOWwiR9p+4y0F58t5qzc+5WXCRcsIz3fg8G6/j"
            "TduWq7HxUf6JsfkKFkZXgWlpRUOJZt51mWMi8F9d0VqznkJkpeV8i/vKQjU/LODsczrq7E6dXX+K"
            "iXkynwpqNkwgpDPQeMtbGmKjGsRNhmiotPj5RDyeQgy1RLuUK/OQO0lxlxvmI+hv8PZ9B+gIfDDf"
            "6VocCx99I0qOunNhp/Dbzd+FjcKPtAcmPhTCp5dy9XYyD8tUN8aw8ijE2qtsvyg2F63L6zP8q4V4"
            "pJ0CweAk/OYsCV+UKcCt5EVG14/QsT2/KmTxWyq8f4ynr35OIbYLembdJ33hPDdg9T6HKdyzO+/r"
            "upgNxSRWOMNGCO/s777Poplo8lMxzXrGhO25C3E+Ziysn2asvSWIgc3V3coLXXn4dclNKm0lB9Pl"
            "KkM3ezPA/LhhbITkm1nn5kcfLyb9zqwgPJzsQbmX5sRvnkPqzU/ukcpzNlIq13632M3Bo0xNdLtw"
            "odHWJN28kw2TnZXN78k5Gt+d9aW6lg35D+eUZWZxYabiuFz8NoXQk49SU2lko+1YlAvlKIVoypZT"
            "yiHoSCaswqo66HB5ee5mrSQfB0edhwVuHMzJ9/OffoCBFa0VG1+Jk/765WrdvQQmWJHD0/M0+dim"
            "NOhtrimA/bapq/JtLDgW1rekk3nhuVDwe78RF+YPc7ftvMvEXcNx3OliIKTyCeNQuRDpUj86BS1T"
            "KKN7dPsWssB8cq/HSY2H/JAzjzR5XChVDYz87GRi9y4H2x3k+7lEkruTNRNlxsusMyr4iJ+IUy40"
            "EIASUBBhVMfDqlUL/+j5M1A1IX7OpIMPJ7VeS54tmRuHr2604QrwwnGQpdYkxKZCSmPIGBuHRn4P"
            "P50zhfWVB70/kfn9T37TfBVJFvZ9WEc8+ynEMmVnw7k5HOxvdLBSCiX3yE15+jqGjhCP/j1nd/Nh"
            "It1jV6XBhvDQvfheMn/W79jnKVtBx7p0uTJJdxaqYoP+XCjmY4sKqyDDcwrHsm35UZ4szNV0av5c"
            "xIJHZ1tEtoiPozkRIbEZXERSSk/5pvExntEcduGpGHH+48V5pseZaDxTZ5dH9gVdf4nFp+yEuCSV"
            "4MHz44PvYOi4+RYb1ASPVRNkTiu7zktRz+BjlfX66zJWHGgo56olqDPAF5ockvQn73f6QLG3PhPn"
            "KWY1E0akf446N77InUKuvPHFtzoM9G7XqgnIYWON90hyyHY+EqmybWLOdPidMEjN8+eibFpMwuWZ"
            "ZH5lj7w2SmPjhGzK5G43Bkp9Ujzqe5gwKr68XZ3BRFu6eLfnSSa8It1t1kpwMGNVq5L2JiG+e6V9"
            "yQAP/NkO4yXJAqzadHXeoZ1c6Oav37XUho13eTEywqJJbLZ5GL8lXYK4pBmSW7qcB89tdmFm67k4"
            "UfAg/MAPAYrHpkLHSb4/3yrtKveTjTvDzXNs33OQaXZvKkYgwCvC9fBwDQ188VLfJVp8mGettNL/"
            "SMdB25adFAMq5hy0Z69rIPMnqq80vWoacVFro9NR8q78tgdd+d5Ow4sP6o6WJE96nKlXCmpgIFXl"
            "56TpOh6C/e98l9rHwecxvbzdkTy88GtW1ulmwsL46rDNay4efFFs0TtLw/K0F2naJA989rA4ZHSY"
            "iwXSCV1OOUz0D3pZHgthojTPpsnGkAeGxKrf97ZSiGV1xJxOkk9k/zsuV3aEDbdK1+P3lwgh2d92"
            "+as8D5YXZH/rKnCwqv76kx5DNnaeuZ987ZgQkbYf5L8fIjlFj7e76LoAZ9U/OD9JoSPVzTxp0TYm"
            "/DfLjyXrkDqde/xEtjgTtdpN7l33SN843/iQk8+Dt+Kf8mfXRPgn/uTQjsIJOJRwTuptZ0DysbPn"
            "Hzk+HGXSr72VZUJO89mlR+c5WFAbvKfnDjlXj6e1RV85OHzjh5dtBBPP5DXUkEbmadsZ2xBNFnpu"
            "TPPYcoUFa99emVkHhBgZd/9toUDHAy1WtsVNFrI9LU/+DqYQawqK45+XUYg5RWsiOvt4+M0vzPkS"
            "SOZ8xEpG/LgAinIHX6fVU9Fx0WAt24DkM4tNg/5kjhd3NYrvXi1E3emtH1ZUsVDcv/Pt9G4KMZPb"
            "ucTegomLmgmdxUpC5KvZe5q9piG+5HXg8gtM6J9VoD/NGoXb2n9fYxIFwN6eLh9NCpF3sdTXyJuN"
            "5Vz16CzTSXgmx/V5faIQHxJGfZ6nihG6P2Yacq5RCKfe0PTuDA4Wb/0o1DCchNGEk/HJQ3w827/t"
            "8czXIogkokoeaHGxP/72Q6kOCrF0YVadgTIHDennlzXEClBQEK8X+pKJIy9eSDd8Y4PXNdtrh6EA"
            "dgsusC0SODjqrCD5bQEf7dW2L9eSnCiZsmJOnRLZf2a6hTwy5mBbmIXn3mgupo3LTl0Z50BHc6Gm"
            "TR8VG74tu7SM5OFww78hw4o8JP2ad/LeTgbGWpZ1NupyIfam3u3UegY2rHefYOymYW3mxrvFcjys"
            "OfZ+fC2ZbybNVh1O2RNQN/fN/OrOxKbe9XOZCjy0uS3SyNtGR6R0ijRDRHKp3cAin7PjcM8pPvzp"
            "EROPe7cU3d5KcoMHbdPz/9hYNqO3bM88Jq65jBbqerBw2CHHplpWCGZUk04M6aPxR1POtSiR+1+r"
            "YKq3Soy4sGrD+xVGFGJ5jWidgw8LcTsWNhZLslHRnTHao8vHaFDM6l9RXJz7Uj0vTchGzRLdBVsX"
            "kTpun/mz7PYUiig56gks8t267fMcA8m+e/bdwb1+LHS9/Of+9DQTKo4R+w1W03EozkqcmsTApqRr"
            "4ZNl5J18LbzhcZGNuXp3MoryuAhop/Ukk729/bH06DUKhVhY+lzFcSMHu+O/121Rm0RM8+62h5tZ"
            "8LwUamnYwMLLxIlfjXZ8PNnq/vjefDYYFN6QwScuLNN+NDyVZWOo3XT35n4+GiurSz6zacg4XD0e"
            "uWMUa20Vg53ZdORcHHzmbiZE9aCa/ZfASWzr+cLPJd912Jd2R+kID9vsHssfeCxEW4C+WVwLufft"
            "anMdNfhQKLcn/Mi866sO3jFxXICmTjm9v1vYILLmyTzsJ9+hf+/Cskss5DfMN6a/5ELfsPrdUyED"
            "1ndyO2YXMGAUrwCpGQwERP7peEfObb6aoZX5KOlD7mQIy9FREIs7i2U5sC+y7pZ0Y2Om6g1uTQAb"
            "k9r1guAVDIjc1xbLLGfgIacqotiTh+avXi8LzWnYnzP7egyfiZ5W6/DZN8k7DeWv/u8LA7d2UakJ"
            "e/jw/O/RsqE9NLQddos2GqJjH/+D+bxHXBhMtrBZ6ZNQbMhPTKpgwEfs873UdgbuqF7ct4Ps79Pc"
            "EJFJcqzqQVfuTi06OI/HPW+W0/F3yyzHg1IcZFubB2b9ZcDOvDJk9A4deUNFTprbyTkyEsR3ejNh"
            "2nM86QmVh9gtvkMtZF5c23ahLcycARrd+7sOmcvD1kNzQwkxYuuCXbu0qhiQqTeZ9UuC7PU6jkuN"
            "pLnQ6w9WiVwshLhvtoR5BXlvIvf39aQ/54e1bL3mKkToi+zPC18KoT0vok+kwsUKfrfN0DQO9Abq"
            "3C0dBPjycpW41hMmbHSy9k5dZODS+6XtZlN8lLZF/wxpFqC2JbV+BXnnWjGKLzfWTSAxaXlzvQ0H"
            "MV2XRRnvmdgrfbqp8SwboauX/vHVZmHVwEhMyzwOSvu7DmqWiyC4fa/J4AsdMj9bwk8o0rFS0SlN"
            "5wYXM6bnuOwIZmFXQsF3Gqm/Vs6jGSUudGRUDVVO+0IhRg55vJo8zMF953fDBp/Jvf/Q1jewpmKA"
            "USB3d54Ib/QWekrZMrHgz9GoHeTvpfgXGtiQee8to6tUSM4h1PVkaKe4JKEZJP2Mdn0CCV5TJbfv"
            "UiH2al/Mwu107CosOdlB8l5sCzNc0CfAqcaaQcYABxtjv0GP5K3HUZtDgoKmIDVz+dLXe4RoWb0h"
            "zyltHEypWsgmccl+VdQ8/wsH4eumvV5H+u4Zx+cfZI4LIf1cWvKOlQj1mTz+0RwJ4jJxzePxAxpE"
            "u/xvyfwh++g18WPzPzIQn+PpW9PEhX9XY2m6jQgxTRGu3ru5uMSX0b+9hOTPjqAHLDkKYbiTIr73"
            "lRiRmX5I7Tmp/4HaBdyWXzQk9iuqv5k1hbovIov9dhxkCPgt1jwWLP717X/DYuHmiNex/av5sFnx"
            "X5ayFgMfc/pyYmJJn656Mtuaw8fnUoVUA3J/hNvLL1PBApxf6tdfe5WBrc10tXiyF521ObYp6isP"
            "KVeGdrhn8dEWUa9WNkiFdP/J4EaSI7P/up3sSWUhIKBS9cf9SSyUVwv5SuHC6PnP98Z7ONhbTifm"
            "VvFxqieraY0GExf275LoWUNH7hbPn0IHNqxRl6pkRfLv3CIo+3Lh5ZmtyQ2jwyor6HBSHsm/m0zu"
            "n37LRdO/9KX2ORRCMkVZ5GHDgK631/eP19gQiBKT9SM5kPPfuuttCAcfGGVRCmTO6nxSDG18yMKI"
            "uGeg5RMeDhnKae7W4eCqDpEcOsTG/s/3f0WSnOUqvDf4zJeHpmmLwwe5XCxladlXpzDgZetRNxjI"
            "hsucFcm69jzc3trkIz/CRaBZzd1vFCYqw0IF4idYyGwNGHlN+r3gjaKP2t1JVCjvGHo7QvZw9RZZ"
            "g0NcEN9uHny/UICwH629lEwqpKhLF2yXYuLkUOtlp1Uk1/T6aIzWsUA5NZQ1EixEpd3iiAlDDrLk"
            "3crvfeNC6raSX1mVCO/rPyTT34lQpzayIGcWE3n+MQsLO3g4Mew89f4uyZP12xxPbZvE3t/8sC22"
            "JP/XLQt5J2Lifr/Xm9xpk2hN5ml4rWZjluMGLSnRBKgzbmmoRnKhEhimO1HMRrRzRGkofwqd2aNR"
            "0WSvTjKlu44+5+Fg+9f/vNWmEP8v+MKSIXHibFZ74rUOKkrmqzu6mjFRXbZhcY6fEL9OHLu+U50D"
            "c81INdtEIS7ygzRTmsge2HE/M1Z9Ehpj29RMddkoya9dsj+I7L+fd3nFdfFxYq6MZSm5hwM0eoMq"
            "yfVvcp4rH+xnoYNufl3MhQnzooW3VlfxkPAz4lNw+xRe8Ep7VnvSMSvef67PDSa83//2uLyWi82J"
            "eqUGZK9Mn2D8nPGAi7jFEWd/3hMib8HHmp2yXPx93fnRm+SOuZ13ykbsaLDf96gwjszrudHSzWUf"
            "OMDv/Oj5CzlwufPsbiGDg/KCFbM42mw0rLhgsvI0D59nuHlMF59E3Iaeu+1kP/yyQPP1L1Jfullx"
            "asefcrG+VEbaT16AM0eSBG8M2HiZYFuux+fAwUXfYME6Ll7RxyJP5jKw3e+RbvU6Ggz3PE/jivNh"
            "eTO135bkyaPj6cZ73rHwZfiq3mQzA5nusiarSZ3LFXsZvQ3lgnX5faXDKwHuu5jerppGx7lbl1Y+"
            "02Oioi2qVMeU5EbB24vvLEi96y6Zp2jPxN9AZXO2iIVlvZUmsyp56B1R1c2UYeJA6e0zp6kMKFY+"
            "fGrryUS5TTZn5TQWwhTXFoYz2HD6KfdPJEbFB66tXQx5d9M+NL1R+///9reiDqdc4yI3L+67xkkG"
            "POX+qV9O4WHO3bVlZ+bSMdX85m6XMhujEpIvMciEZFKX0cUOFhSL5n/dm0ry5IFpGRsn6egMC4rv"
            "Jf3DQzKO7Ub2N4VhZuX2BSx8v97fcZDsD3X6qvZ0kgO3Ni22GxhgQPW42Pkrm9hIrNi7evrLKSzM"
            "9+prW0LFvMx+gaU8E3Mf3N++fDEL4T9nPhA7xUH9nQ3r2k+xcSPwit04ObfmA4wwxJB6viLecIzM"
            "1QD9hLpuBSYmd6pNLbDl4mPROmcTDyacc1z/efRNQv/mF20ikQ15zS+O5WYcvD8ccFV7P9mz3NwO"
            "63oKMb97VSTzNxVjbylkkybnZSlepnWJj9oEBlV/LYWQZh5ZuTSEBiurSKXjOQLcC5ohVbBKiLdy"
            "VzLfkro4x0+SVyN7R3jfpc5lJH8Ga2lGFB5jYvf7GYp9JG99Fn06TNlJh6i4ndLRzcX4WGXCur8c"
            "nHVLvfFEjIunS/a/OBHDgNr0bZ/atpG9eLWZ6sZndDh0m5teMORCVoufO/6bhftNwQ+oz7io3Xf7"
            "kVmHCCZH/m6f00zH6Td+JTVR5FzLE63cCph4cve70Liajf8BU7VmmQ=="
        ),
    },
    "lse": {
        "dtype": torch.float64, "shape": (1, 1, 64), "stride": (64, 64, 1),
        "offset": 0, "numel": 64,  # 0 of them NaN
        "data": (
            "eNoBAAL//RoMHAWRSO0+RYh3Vj8w8z46U4TLHAXxPoEigoMBHPA+ZqKzCnh57T4GQ/Ng7W7xPlXF"
            "1s7DUfA+VwGKQze+7j50GTUylvXuPqi5inYfo+8+6EprBzEj7D67jgcyXEXwPp41g1x7Yu8+g2nM"
            "Af0w8D5jk6OM+zvvPjtjJhtaevA+TQaeWOkm7z4W5m0Us4TvPtjuz3/QwPA+blESLkQr8z6zhvQi"
            "L5HwPjgc5Ci1ePA+EkrfAYR08D5i+lhWbxDuPqCab/UKVPA+DnnGgdkN8T7U9ob0Wm/vPtKVlSVm"
            "/vE+0d5ZCv3K7T4oA1wmnkrxPl3AY/5Z9e8+WxTqn20S8T5vC+EmuaHxPpHnBDVuau8+dzLjEMgf"
            "8T4sZdhgYUfxPtRFHD312fA+6RlzOHZr8D6sAPMzZsXxPjT7GgmRuPE+digdrF7M8D4olXYuq+Lu"
            "Pqt/q4WO1/E+qdOtWJhR8D5ix02dq0TxProIeXWzGe4+uFStMq5U7z6s+TIGz9DwPnlFSSxWovA+"
            "UQuWAx5Y8D6YkVRP0rjyPnPNAM0n5vE+zLlclIEA8D7/uQ3iUGPwPqJAe5PHgvA+f+3aEHyw8D6S"
            "yFrdygLzPis1wNRDyvA+7x4Kxrtf8D4/BSi50vDuPnlkntoa+u4+umtIWFFM7z55lWsX+mLwPmMj"
            "YuEqHPA+sT39Aw=="
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
    """q, k, v (and dO) on ``device``, with the values, strides and storage offsets (inside
    the same NaN-filled buffers) that the implementation read when attnfuzz ran it."""
    return {role: _tensor(spec, device) for role, spec in INPUTS.items()}


def function():
    """MODULE's FUNCTION, imported as attnfuzz imports it."""
    if not torch.cuda.is_available():
        # Triton reads this when a kernel is decorated, at import: without a
        # GPU, its kernels run (as attnfuzz ran them) under the interpreter.
        os.environ.setdefault("TRITON_INTERPRET", "1")
    if MODULE.endswith(".py"):
        path = pathlib.Path(MODULE)
        sys.path.insert(0, str(path.resolve().parent))  # the module's own sibling imports
        spec = importlib.util.spec_from_file_location(path.stem, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[path.stem] = module
        spec.loader.exec_module(module)
    else:
        if os.getcwd() not in sys.path:
            sys.path.insert(0, os.getcwd())
        module = importlib.import_module(MODULE)
    fn = module
    for part in FUNCTION.split("."):  # a qualified name: Class.method
        fn = getattr(fn, part)
    return fn


def results(got: object) -> dict:
    """out and, if returned, the LSE, from a tensor or a tuple (out, lse, ...)."""
    if isinstance(got, torch.Tensor):
        return {"out": got}
    if isinstance(got, (tuple, list)) and got and isinstance(got[0], torch.Tensor):
        found = {"out": got[0]}
        if len(got) > 1 and isinstance(got[1], torch.Tensor):
            found["lse"] = got[1]
        return found
    raise AssertionError(f"returned {type(got).__name__}, not a tensor or (out, lse, ...)")


def paged_cache(k: torch.Tensor, v: torch.Tensor, page: int, seed: int) -> tuple:
    """(k_cache, v_cache, block_table): each batch element's keys in pages of ``page``
    slots, in a shuffled order, NaN in every other slot and in one spare page, which every
    unused table entry names."""
    b, hkv, sk = k.shape[:3]
    count = -(-sk // page)
    order = torch.randperm(b * count + 1, generator=torch.Generator().manual_seed(seed))
    order = order.tolist()
    caches = [torch.full((len(order), page, hkv, t.shape[-1]), float("nan"), dtype=t.dtype,
                         device=t.device) for t in (k, v)]
    table = torch.full((b, count + 1), order[-1], dtype=torch.int32)
    fresh = iter(order)
    for i in range(b):
        for j in range(count):
            p = table[i, j] = next(fresh)
            n = min(page, sk - j * page)
            for cache, t in zip(caches, (k, v), strict=True):
                cache[p, :n] = t[i, :, j * page:j * page + n].transpose(0, 1)
    return (*caches, table.to(k.device))


def call(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> dict:
    """The call under test, by flash_attention_paged's convention: the keys in a paged cache
    (pages, page size, H, D) as attnfuzz laid them out, the queries the last Sq keys'."""
    b, sk = q.shape[0], k.shape[2]
    k_cache, v_cache, table = paged_cache(k, v, PAGE, PAGE_SEED)
    seqlens = torch.full((b,), sk, dtype=torch.int32, device=q.device)
    window = {} if WINDOW is None else {"window": WINDOW}
    return results(function()(q, k_cache, v_cache, table, seqlens, causal=CAUSAL, scale=SCALE,
                              **window))


def visible(sq: int, sk: int) -> torch.Tensor:
    """(Sq, Sk) bool: whether query i sees key j.  With o the alignment's offset (Sk - Sq
    bottom-right, 0 top-left): j <= i + o if CAUSAL; i + o - left <= j <= i + o + right
    within a WINDOW (left, right), a side of None unlimited."""
    i, j = torch.arange(sq)[:, None], torch.arange(sk)[None, :]
    o = sk - sq if ALIGNMENT == "bottom_right" else 0
    seen = j <= i + o if CAUSAL else torch.ones(sq, sk, dtype=torch.bool)
    left, right = WINDOW if WINDOW is not None else (None, None)
    if left is not None:
        seen = seen & (j >= i + o - left)
    if right is not None:
        seen = seen & (j <= i + o + right)
    return seen


def reference(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> dict:
    """Attention from its definition, in float64 on the CPU: out, the log-sum-exp and P."""
    q, k, v = (t.double().cpu() for t in (q, k, v))
    group = q.shape[1] // k.shape[1]  # GQA: query head h reads KV head h // group
    k, v = k.repeat_interleave(group, dim=1), v.repeat_interleave(group, dim=1)
    scale = SCALE if SCALE is not None else q.shape[-1] ** -0.5
    scores = scale * (q @ k.transpose(-1, -2))
    seen = visible(*scores.shape[-2:])
    scores = scores.masked_fill(~seen, -math.inf)
    sees_a_key = seen.any(dim=-1, keepdim=True)  # a row that sees none gives 0
    probs = torch.where(sees_a_key, torch.softmax(scores, dim=-1), 0.0)
    return {"out": probs @ v, "lse": torch.logsumexp(scores, dim=-1), "probs": probs}


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
    for name in (n for n in WANT if n != "lse"):  # out (and dq, dk, dv)
        if not (returned(name, got.get(name), tuple(want[name].shape), DTYPE, q.device)
                and compare(name, got[name], want[name], bound[name])):
            failed.append(name)
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
