# Reproducer of an attention finding of attnfuzz, a differential fuzzer that checks
# attention implementations against a float64 reference within derived error bounds.
# It needs only PyTorch.
#
# Case: B=1 Hq=1 Hkv=1 Sq=66 Sk=64 D=16 Dv=16 float16/ieee causal-bottom_right-sq>sk scale=None
#     values=normalx1 layouts q=contiguous k=contiguous v=contiguous out=contiguous
# Mask: causal, bottom-right aligned (the KV-cache convention): query i sees key j
#     iff j <= i + (Sk - Sq); so the first 2 of the 66 query rows see no key
# Property: oracle (every output within its derived error bound of the float64 reference)
# Implementation: sdpa_cudnn: torch.nn.functional.scaled_dot_product_attention, pinned to
#     SDPBackend.CUDNN_ATTENTION with torch.nn.attention.sdpa_kernel
# Found with: torch 2.11.0+cu130, triton 3.6.0, numpy 2.5.2, hypothesis 6.168.3, backend gpu,
#     gpu NVIDIA H200
# attnfuzz recorded: out: error/bound = 1.1e+07 at index (0, 0, 1, 13): got 0.3291015625, want
#     0.0, |error| 0.329, bound 2.98e-08
# Exported from the dump oracle-sdpa_cudnn-20261130-055958-1364 by: attnfuzz replay DUMP
#     --export oracle-sdpa_cudnn-20261130-055958-1364.py
#
# What it shows: Passed the inputs below, the implementation returns a result (out) with
#     elements outside the error bound that attnfuzz derives for this dtype, these lengths and
#     these values.
# Expected: output within the bound; rows that see no key are 0; the inputs unchanged.
#
# Run: python3 oracle-sdpa_cudnn-20261130-055958-1364.py. Exit status 1 while the bug is present
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
    "B=1 Hq=1 Hkv=1 Sq=66 Sk=64 D=16 Dv=16 float16/ieee causal-bottom_right-sq>sk scale=None "
    "values=normalx1 layouts q=contiguous k=contiguous v=contiguous out=contiguous"
)
IMPLEMENTATION = "sdpa_cudnn"
CAUSAL = True
ALIGNMENT = "bottom_right"  # if CAUSAL: query i sees key j iff j <= i + (Sk - Sq)
SCALE = None  # None: the default, D ** -0.5
DTYPE = torch.float16
INPUT_PRECISION = "ieee"  # "tf32": TF32 matmuls allowed
# Where the call runs: where attnfuzz found the finding (this SDPA backend is GPU-only).
DEVICE = "cuda"


# The inputs.  Each is a view into a larger buffer that holds NaN besides the view's
# elements, so a read outside the view would show as NaN in the output.  A buffer is
# its raw little-endian bytes, zlib-compressed and base64-encoded: every value comes
# back bit for bit.  inputs() below rebuilds the views with torch.as_strided.
INPUTS = {
    "q": {
        "dtype": torch.float16, "shape": (1, 1, 66, 16), "stride": (1056, 1056, 16, 1),
        "offset": 0, "numel": 1056,  # 0 of them NaN
        "data": (
            "eNoNzotfFHUCAHDBB6SgKYWYpyK+FliW3WXe8/vN7lp9UoMOFPTj+UCxMlFMJcV8fdQ0IEUjH6h0"
            "4gMCEZZ9zMzOb+Y3s4voBVdmciG+35yXgtUdqeeru+9f8H0miqgD/V2MElukbXwNWO2tGRdXn8f8"
            "gUeRzQwHlnPPyQrmHeEFt6RlcjA3qOFchgJhXiI0XcgBo3kTO9byitGojAtRvnbygsQK25025xX7"
            "etjCmXAEF03oqgouMbx2xLEGmJNnaoPKY7RSOkKJ93aC3Vy82YNHYB9qxeHW/tLX7FlugwiohdpB"
            "0caNU2zYXHMg5a9OFecbDcaboLHZ41nNba9skKN4e+A2BvChb47uNxaHYlyj8VV+OT83cMgIgnLb"
            "cTSxyRAv43ylydvKRCd24zytigjg66Fo+aY7kY103vBcY36zlnKcVqbHwyQYgboloIwWz8Fvxcf8"
            "BtcY2wv9St1lNEyKMB+UX08uwWWqqm2xbqFjVcAEuQJ8Xsl2vUzqYYNQQHk+JH6ihImF6LDJIk8y"
            "nlMv6zu4b1OK+SruU/DQOK9PAQ7bHHY3r/MrBYvxnr8tUYLVVD8QDzQyH37c9L1WKUM9WsyzHWPS"
            "kV2PcF2Sb9iXCZ3YDwdaMulrcJt4kJ3LO+mJ6LQxEFnYKngI5/hIZoDL4/jA3ITy+KWhkvpH7GA2"
            "XZzl/TDtmBAkWzw75LN0vjHcSsldWpS+Q18Fr2ibQLjQDxBEjD3J85IeTF7Uj4qv4WHWPfCxqRB1"
            "BC+C3Y1ThKGAm2CyxjHpe8vkDm4QaDZhZqSwKS2PryfvYkewW9mHPwKvgotcgTCuMUYYD8tQeONw"
            "Zl7orPKGr1Qt1DdAhy7TOtcDdrIObRocQlWhvtRrzuNCOH+Ym+E/4LzJ/4J/BxY4JOm2/IHkbZoF"
            "AqEFaavgF7g8cB4uwddTy0Eztz6tQu+y/wVHoUquDd8L5RpB/AZqI7+UPMJG7j3HPHpP01PrS6kc"
            "ZeMl6l1jITUSCIalcT7/hHqM8kA7OgTSSTN3B48lvlSOkythtTXSNjF5hNbFbQotUA5wVUqmeNt2"
            "jusjv61Ec984fgIWvFHO1HyQpFc0FjkeqgNhA9mp9wmuwG+xQ09+brNShQA6/0FKJAsqyXnaY88j"
            "PIAwcXXkKDXLna134wyfpvdzv0rkCqn2a8LfvB/CLvWO7BZSYR3VS0917hRyLOVJ/Ym54gpulvjc"
            "moUipQJ6WvXvaIWjXUoFATRDaABh9i8ELK4DuSn1zAmuqOYhaW12Epccaf5JynS4mh5DRelrqUrt"
            "n+oZeaqSAZ8q38GhuokJN6YTi2y9KI6NBD/z6xVfguh4R9oKCy2XVQg99gdgSvwnocngvm+InVSL"
            "uQyjDBexsXgZvCNtZopD0eBXPQpZFBV383vSJplHEAmxCVbC/8j4DDkbMtWnwnYxVz/ilLmNhoub"
            "cfh9YrzX5UwgStxbg/HjntoumHuhCc/RrfVxQgEcLafqWXW9qduCn8nh8D6WFBfxqXQQZ59MdTk5"
            "SRiEu9Rz/H+8/XGmZRFspcbqI9i97HN5oPEjnwamYjd117/e1i1lN3RLmQry9nU+Ql24nLap7wpL"
            "wSvE2FNhjbNwX7UHhKkR9E5UpBW5j0prQgsdffUqmOiIFv8l9hC71GT3Ojlds4snxaWhCvqM9CCp"
            "R22prVOHOV+Kbb72VDP5EudQMx2r9O9gTrDMv1wJ8H/2cuoiX4SRbSrQOpV6I64uTuaYtlH7JQqX"
            "IDcPaEP8ufYZjhKbhK+MZw4OdZ3owBL+CjKhfQ0L5XxVAh580bIprZRw+Tqs85kNrqXCFbqHqwgc"
            "0dIpn2Uetb/5OmOD652H8XmMvJEBk16E6qQ6a4KQb/3J28fdg/c2vctqwT7sW2qiexW/GLVYP6Z2"
            "Mbf8a+CZxOGpt5Lv0afUzQCwv8rhqBddUCZIBXoxeGJvQFifzVcjO6isroH72aPOAcoaNUMM0zVq"
            "Ga+yIl4JhoaeeO/X1cJY+g9qeeIKbSS4aSsDT1LnMaHAQ+sx2xy9YtRC3Nr0esoo8gXTRUc72hQX"
            "7ISDEKXkagZTjU/DH5q9XBYcryUBv/BvcqYlRz4dKDCuS7L3GN7IWPzpobMGfWKBGqs4Qwox2jdQ"
            "J4MG/ijxied0U6yuwP+mzGbW8ivEpWSvfbeazcFQDb9VKQWPye2eU/xibQ7zC86RY8H3VII+PLDZ"
            "OhI3/n/uoy+SNb6r8kZQyL2gUuCbRiR3CdwTEIoefxhnHS9Ck9h2o7+8OnCJNsPSCR7mEEeDp/4G"
            "IYZRPPm86ZTDslBQQ7uoqYgxk4Fa+aw0KLhYdjkyjHqFkLal7Qzd8e2VBztjRSe+p8Uga2Cs40d1"
            "Kv6BTfAek2c7GvE9NlszwckoRRlAhtl7+D5a8vg/AYOOkjm22hyOa8FvjIfehabgVjQEYl+ePDLt"
            "faVdtRD5yhp9mncbM0/v9Iesj9TFprfN5d5ER0byXG0EcQmOCWzAcTgWrPWkE264n9lpniQWN/FG"
            "oZwCFHQ/qYSOOF4iRTWzfK22XbsPaqgHaUmUM7Fam5N4F38TsJDFKVneWfCR3yRNND7XK4jnZqeZ"
            "FHLhYHxbiSJv2MIlDd+yzwTzwTpmBpOXuiB0VT5qL3C0Bo7QVYod9KO3sPu4ZmZAI+Im4xZUqfNp"
            "BeJyvZtaLu3AEvk/R17ifw=="
        ),
    },
    "k": {
        "dtype": torch.float16, "shape": (1, 1, 64, 16), "stride": (1024, 1024, 16, 1),
        "offset": 0, "numel": 1024,  # 0 of them NaN
        "data": (
            "eNoN0wdbFGcCAGDuchofsROKnCAYj86yZWanfrOLLWpOg+aIDQknB4qnotji2YKxPJhTsaKigAaQ"
            "vrO7U76Z+WZ2kUQjtsQeUWMBuxKViBrjXf7D+45Xe8rLQRBcanTb39TZYYq/1WSjt6BAYzt6H7pJ"
            "2t+bcLPHiGDqjh7g6KRy2SfEJXQrKYybQEbic0Ak+oBJ5Ccpddo1/Yh2T+qkIk1zjAlKWsMQPQxb"
            "iT+yO1QTij0IqS6keQ7rs5xT6rMpBi4Ts9wPvIeUQuK0vJ6ZRsvqDlRISuIwPp066L6p7VDjfNPx"
            "ybpde03fhZWoPOJr3Yf6Irfrr57Lng61OqVEbYGFDf/QG6x1jSUgT/0zfdP2WEw/MsYYT86N7QnD"
            "yA52MYpnByvh0r/NC8QwkXNmWKYxLrjbuocMTvzEebQppvEVFqg/Iz6UzkBGG8DuTTyMorBVWAf+"
            "qizI/7G9noFSEVVJLD0aQvaqO0Bn6VFYpaLzrXYCz7RniiQ0049Rh9sJp9lC6ovYZ7Zs9l7yJP6E"
            "Ibgj5dtEXz6HWMWEGPfIFrnMbYALdDq6SfktPtUDTvMT7SGOcQYvTyc3qgVNv5LZeJBQmCyaSqnJ"
            "Qrcyxd+L3ajEuVcllqp7yWp3st/Hj1FPSb8YJ+AtscyeSTiS+lC3oWAPjjhIIiQ3DYa0iFH/ZS3i"
            "QLXSs8Y/krwI3hhT62LZ33GgfOvZ7f2h1s8EUHnGDUu+2sm/NkUwrfopciIT4LtMDvRHE2NdT/UM"
            "mJ1yDn9N7wd/8zVpLn8OKpZuiKnCWqlVj9eq/fOkNP6MtiAlEDq8Lv9HapFYiGfJxVK09z0hyyfB"
            "UWwNvKSeQ6HwEN7Ieb3VTS+5A2QoWCNWOm9bh4vbmE9TU+nvIDTS1dniShE2F4BGYr+8UJgvvSNq"
            "+f+Ib6xt2mw5hpmnrAE/iancI6o345TyNV/zZ5LNu6lpXKKAgkFQw1Qmy7ewIl2sQm1ajBTAqtIM"
            "sVB5iEfRf0n4zPKTsdXxMR2C8qh3uhtJthDstdHojEBjzfP1JCZCfIAfqPkKt4IZUk8js7oYK/Rt"
            "UEYTV9ly6SZznTrEp7NR+hV9cM1OdIesRlfl+7aXZCsfQJWyz7kVnkYnx06wTYgZAhZSYfgx+i3x"
            "G3ueorFixqfXsCUsoeWABbCiQeBaUBcyNV2Hi8FO8CXFJATag5KncHOd7XCXPlsPRmfw6+7LzFLv"
            "D3GsLxyLYHMtJ6hbUrttF9tPX6BHgfmgTGCocFAUvcVTzxSBAmcpVUC6hA8dGVSDtI7IY9vBBsWH"
            "D2W/QzZHLW027ROLqFL4kW9Q80yjVtuFa77+chj41XTf+oX7Ed1gD1BexF10drFb9ZGQZ//VGEyu"
            "12u0GEpiq8C9+k/h99XhejI6LmZi95jtzGZlliHT7XiJ2ikcZ2qRTeutpYHVgsUxgD0Ve5duU2q9"
            "GAfc4zkPWyC3o6X+JYdR/I6k8qPnE6MoqLbbrhHh+ntUecou8aoz2/nQN8F4Ts5kRnJVCTO8zfTn"
            "+hX2tX+WwgNrUh62Sfyf1o1WSA56hFEiTMSnWGLVfXAlXOO4gG4zB4Qb8jL6GJ7HLqIDmRnWKegs"
            "1sfbwT7TK50h3oPiUOGlby3Is4bbtpFn9XQUUbdP6cfWS+vMK1I+kbvJSLKBXkbp/p/NVGISaPSJ"
            "XB86je6O+R78oiWqj/E6ywF/IfJwUczPnrTG+ykAqyMT+FxY6ugqDa0B1i7fG6ba8rn9mHsv5BIl"
            "gWdnM1Uo3yEL0f428xP7BxQRxWmJylnqJDpjnWd0WsrlL4RV+kmVEcrY8NR4cR4cpZXbZqnb4O/M"
            "DvPXVsTfBawuIqe9xdTCjfE9B831TbBJjhEmO1+CSfH5WpKek/qlclV5pQYlZNCp9EOzC6x3FsiL"
            "uBiK+ePbbi1S/id1h9uMYptJ0q7ZlTIthnXR3TDJ8ozKsA44EoN3q4srTptHcU/gHfNbYTm4oC6R"
            "L/Fv8UH6NaGvvhgbxE6vzqbLMBcnsUnG1ujFCkFd1EOVF0yBvhYM5efAItbqlG0R+ig6VjrtHcuu"
            "rvpGaANLqFJZ1LLAI7ovO4TbKaTjm9EkzObKh0EwzNlmmcd0eOdCQklBOrArb8Gh/SFRD2yRQNEG"
            "4MPEwXqFJdLfqniPBprPsUPVHx2JYJzcS3w6bBFR5ynkv1Xeqb/Rr/QnpvI4jC02K45zZA0ocxHq"
            "GPsJ5LYrNPjDPkVsAPnuYv1swg3QEztCL1I6QFCkxzcD60+tI35kQg1oDATXrYFR25NZf1fcQbic"
            "6iLqsZNMAp7r/xNbCcc2rzFtoRnikDq6cSQ9VdmE9mhxI2zUWs3iDbCsdnU2tXwTyiSZ+zTPt3fL"
            "+WqWctu2AvVgF0kjk3qIvZlCNa0eZ+rl4bE96P3Ua7ISzrTXULo4Uznv25Pq4Psp2UoV/YYcweXA"
            "dtTK7ONmoV3WYmU0vSX5AnaFjyNr4RzepJdY2zA/mIpicdwhGQkczzj1Av8Ld7DstG4k+qn9raUp"
            "vytPk31NmfAEfVw3+Xp6hnv7y6NlEQzF3mlTrZQSXXeerVBz1Rxsi/R3rTdXppv5Fe4atY2pqB0b"
            "l0G8H5/BbAYB+Fku17xMXYL9H8+T3Hc="
        ),
    },
    "v": {
        "dtype": torch.float16, "shape": (1, 1, 64, 16), "stride": (1024, 1024, 16, 1),
        "offset": 0, "numel": 1024,  # 0 of them NaN
        "data": (
            "eNoN0otfTncDAPAYwovJSsZqmiJdz/M8535+5zxP5LKWNJRrrivspUjycZlWLnspNJRoI0oX3Z7L"
            "Oc+5/c55nmjIMpF372eWxj6WNLfReiN9et/v3/DttduRZZSftETvkxnqU8aF7FSWcnnCOrIQvKlP"
            "I1eJUWCb+5i4TsvjVxu8aKdhMDUEjHfUSB3wc36/8WRtgcA7q/RCwaSckUtd1ooyFGALYCy5gI5X"
            "k+FKcaL9jPqzuhlEKL8wNvYC5YXZwQi8A9wHr0NT6RlSC+tEEiyD9AfybrKXXCttsd2tYGc0w3sX"
            "Jk1vC8nhGh0NGus+r58sahN3EE652ZlyscnZqgcgRdQVdR9+1b6NbEUOKJB8B2U9VY8GJvE9qo0I"
            "MPzHGAheomXuN/psNtLnTVCA8SXwhceQTH9CLHYO0f4S/3Zuo0aTyfYVMMuRYq2ufiS8BjiZoBdg"
            "O2CH6JIJaYuykMiQl9h5MoYNFxCh25oqtQV+DrwkmRivL1C+rivXN/A3xImWn4RQQxq/FZSQDNmP"
            "1lWnM7lyn/baNVPabtrAJXBZhD8EbGKDIwISZeIG7uzZqaDB+FZrkRW9KrwLbpU3uQ9an4Hf4Fmy"
            "RDvImuF5MsWaqOngV6nR9PT0SWaq6lR64S5Tcd3HyCvqmmZVokUPfr+6XjmsbuNQNV+bbfPF4lyB"
            "7Dzuuv4ld1ec4I5Ty+QBLJMcKe1WE753VQ62B8FhhlJI6a0uj9oo9IxSJvvYCCJfLfBLY4r0YvQ3"
            "cFDKgcFSC5XF72fcYKzsY1+pa+5xQi/Cidfkw+o05wXeD09Cv5HWO1n+KnaH8VPz9JXoWecWKQFU"
            "VjJhG/RUcTEtu21yGBxDBkQmwIU6K1dc+q+hWdrJfAck9rpxAI4ivlDC8eGVq6mb9vGue/wDchEV"
            "BQabC9mbwj7zyLAmwHHZ7BmphO6CA0I1lY0Mot0XY9Eysbj+JD/CgoEsZjXnjSQ5vJlkqRy2cBvZ"
            "UHEyVYteoRcrHIh0hmqL6HImTXpMnwscz5aTrcoCJZZMBq+JteRX1inup3W34d6Gm/zSsFHCLdCn"
            "xatJWJPphv6HUoxPEN1cDL1LTTE0ggkcwYxz5bkV8nRIpiM61KOhXZ0z/Tn1POoFrYnfSDdNR7lj"
            "llK10dbOD+MQ8BykoMeZ65Qx+DWOCBvAPHIHtKH14ET4Le62rV8ol2br8+AqltbfKkWCamrSjljG"
            "ck9DaHqh3OgoAMAdrx5h/ym8B5LFu2QvO9yULxWRnqyHOdac5cgIPuCcq3XCFUqa/RazxIZAT9QT"
            "DwP91B14Q0y0q9QccSi+y3p72nBuL50DHl36g3oBs42biYPcAMxgf0erTQ3YINkXVmC1dHRELvUG"
            "JuM/kl7KTHbPxaVgHWtxj4HdFQ/EFeTP8jS9SwlSsqm1VAZIijpZddpsdttwBzqfysP8DQscG51z"
            "jQ8JXprNxGiZ5mR9gPOUO+3HqWX6PuDn6okYwHLhyKhAJg4/xeaiQo1ZikPa6H60X/Fm12OfsEV4"
            "u3TUscVVVrOGzyY2s0nMO/cxuUCxkZE656yJuED5aIWkjTjrmAj3no9jh2MrQP/0xYQv3S69wnth"
            "iNYgVbG9Vk9hlmMJ+NpiNpfWNDI7wxZZT6DLxViLTg7FO6kc97+odqmLn2VNMv4UMlT2hsOwLOez"
            "ajz8nCNVYfh4/Nf/H/YXPpN71GhxtGkz+rflsdSjRcnrLz2UNmEfuLeGmbjBUporVU6mfcmY8GnO"
            "aEcJme7QhYuRR7S35Pt4t+EyfB+eEW6R56gu3F9uAa3iDz6dzj76vCsO3jP+AC7X0hKhpJKHWNr+"
            "BHlgfwQ7wTJ9HjmZ65POKdvla+puW7p0UZlliXL+ji03/Gl4EbawJtbNyvfqPrB26IOsb8F8sA7u"
            "iRpssof7VmXQj5VKOjNgk82Dm2aNCaxTtyvj4DiqFRwNTnDO19KN16L66FzKixCpbOop4ofHEa/k"
            "DKyRBExEaJBUw/xbT2CDrFGSL3xaNYyfSRnUd9RqKp3oRj4UmsgWao1SVLNRSbLnR36kfSpFE6x0"
            "ob6D7ZC/ReOJoCgvZ6KSH/6VdJP15UbxpcYvgCAfZfZg3nJ7/dXatRpu6MLzZTOMocYjQWqxFCrw"
            "ZpxMtFxWDrOJdtLVRPXopaY8/bTlDn23agfyC/yLO4S94tabdfSStRyfJExxPGOCpTGgEKR/hNJf"
            "SlPrL7mSVIe6BmlzTJEPaOlUFjvJ3MMjddfNOFtku8F+F5GPTAGeMNM6R1tKFYMydbnor0bXJErl"
            "wh25TSon69hOargYSp7Cn1AnpGBXou6m3+oPte3gE5YKGVodR+HMONRsSgUbsbuV3toV/Ak50W2R"
            "x2IjzP1yt/6hct823+VJ+UCUI81meB95Cx47PgPtWI74sVxJ9XI5Si4yxWKhtwrNcpltku17JltE"
            "YTTsl0r0GyWiq4WvANvpYXqPcgdcUybXx5vjwRYwRDjIzyA9jM/h6dAjCo2OZQ8RkF1l+RZ/zg+1"
            "BcBmNwPf8T1Ut+MU3my2g3qiWsRAG6hTVlDHq1PQCUYHUwjfOA+AAuARyZMvg5PCTShXc4K0GEY3"
            "rNaX638i3nCu9Ud6qW22+x8WDp1o+R/HHNpb"
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
            "eNrtd/c/FW74vqKkvEkoq5KdlJRRlLtEmaVCQ1FWREpGw8xKmfUuFSKb7L3dxznWcYxzjnWM7FXI"
            "LCrx8f28P3/G9/nlet3PfD2v536u+7qYmP5/Yxqg4P9iPRH+F61H/0Ongf/6b/36D6fG/w9H/hsX"
            "m/4PV/5v3cjX/8Ytfv0XH+74Lw4a/C++Ov9/8/C//vJBmNlTNbFqTEPPMs3SEb0O6Ba08lWw+wSs"
            "o8TuEqkB7Ltt7KQXsIwK6S+SvVJGcPug6q4NXoMwN2Ddr881BZN6Ihec20mQ1suRvulVP7I9n//n"
            "jtESSJu8Eja2a8PyD07CRWKtQCDMDpNXhsFS4lS6Cls1flpyK8DnfaBI13+hFExGGXOzTkZFHtQ+"
            "r3VW4aMgb/KXf2sCZpCLebcl7f0sWujrX6rlHUOWQ2N2Ds5vQMngG3az0fGlym7WjTL5UMP6sVh/"
            "rgpzlN4e7NOaAarpqJzViRHcqG6/+eY2BticZxEczB2Bj1Jvkh/o96Fu0w5VQ486VLVdsbrCt37/"
            "oDIL/pxmyCifEE+jdaNtuuP4d4+v+PC1JmGIPIudflq3Ch6NYJNQ7y9NESrIfJJXssijQd2qUvyT"
            "HdXAI3veUzWnEj3OJ33vY5sHGUKjwqsLPagd2pdkstYKyr8XZIWj+uDP8FLUu5o2FBrYKGfLVgFc"
            "U6tsA/I96HhAcflYRAF0hTE5n4KvODThdFs9YQTbnDJJra0dEKMzETuiMY6mffLxZd3jUHeoP9aH"
            "MAsX772lKTJ/gaONrQUMlQZAC+dEB9tZ+MRlFOSt0QuNWVt/mLBPQHDxEu/Zpkm4mwqZfx0ScdX0"
            "zgsnz0H4u7FQLva3Mxi7NL+WyOwEKZkYw+9sg6iTKir65+4QakfOdCzlLWLoV41uGa5BvCyoNy2/"
            "rRZuhbg5v4lkwBVqfLPfUhGyW0seUb1bh+GFF/zO3f0KA+QXnORnGZD9Uv3j5SIaNhPrwDuADu7D"
            "oQ85d5SifmQxabUlCwt9b2b33C7ALakhQnz76RCU0bhmTpvHzwWl+afOTmATM8eh3MRe5KH4DNJo"
            "XzDwiHmt2AINooceMFlPjICVxMG7GfuKQHHJhD39MhV851u3DNwYh+m7vy66bSRDo631UbbLH3A+"
            "8nqe9s562HxfzPKaoRcesJgPUjKshuE099muQwSgRH1ZM/IngnANkwkf+xym6i0Mflabw6VvigVc"
            "It9x//XNG+LdetGTJPjd7gIRV/3EfAcYBfg+vuOY/u0yPPjX16bnVRU0Hq2K3KYzBOg+d7Y0qxM7"
            "zFXvE/VoeLxWSn93Wz7cke/xUOZuxCGC1/cTzAyU9IglhGwkgpbaS+UzYmT4JOD8YI3Yg0TBFzyv"
            "jYeQJho9yXZ/FsVtxFlawntQYe3BrHCpHz4wTGN+kRkL+0zoj/heVuEevtuH4ssDUW9yQLNfiAGn"
            "3HU/bdergijzW6lr+1qxrOVcUL8uFVaky97KXqnBLY9tI6SjqrFJNsD6tlMR/pRpMlU2KYeZzChW"
            "Kd1W5FtTN/sh3YSZYQrjKQWj+DE2Q9y2sRrtHv0N9TArAcow4RrnVQqoiqm+9vMpxy4xOwMfFxJO"
            "CXreWhBmAGfe1Q8CuZ1gN9+4SWShDt8LeXCItbdBc+nkC5V3XbhBxasnwzUf7eT59c+v5sHh7MRZ"
            "9X+GsIo0JtU9NI6MY9KPIrgfQh1uYGa9Scc9Ri5uof01eLSChevmnlyInkm9WdHdBVscKpuN+zvx"
            "ArG/NNu+GvJ+/fC4698G7wdYH3kzUWBDy5nB9yyFmJX9zDOy5BOkXR2NWnOj4Na6dy78mXF4/sya"
            "WDediPe3/dmle3sYn1oSTP6c7MSQo8Jj9jvKIHjT5o16cb3Qvsd/34YHdNyfJMt0Yp4AT3q/l/7O"
            "IkCZ5ZWTv+8QIc6hklKkTAe2CK5SPYF2OLtV7RteH4EQ2+mWx4JENPghfDCtmgHTGhdLMtf337RW"
            "mvZAYgD9+XSUYpjp+N05vpBHnwqnnIqeUsuG8DtXDIkkWQ292TwX9Own0Jckw3VPgo62u45z3jhA"
            "wPCoLPMjy2TgKFY4rKBSi7YhJ56W8xGAtNZ9sy+gDR4FHpkNHOiHoew2iXh9Er5O+yLxpp6Aqdo5"
            "Rp7kUjwsdrJuY0su7Ib0/DESHUXnOiL2GhHhdMqlUPW9E/i2XM9b6kkvXrq/yfb8j0ZMrad4TttQ"
            "gfCbdJtFpw1PnJl/QtGKx+WqvrKdJxvx6OHHZ3j/lmMNddgh/WYNZBvO2lRJ1q2/K0fkXqdmDLAw"
            "PH349Dv4SpBM9f47gDtl6y6A+xe8to13at+HDvxhy5yu8OE1nmhK7PgTPYvJGokeH9b5+WigwNYV"
            "9xY8+Xst4s8wAYjcd/6uXaejkpQS050tb8Agco31WVg7/isqJahHrATb6wJ3XZzo0JH2ufzyjTgw"
            "HiRKD2yqwb2KeebZ4+2oLB05caprAKXuUW9bajFw8stPtqjSfoy52fnO0KYVt7K2X36lM46NX2gS"
            "lf11qLuBp3g1og5R/XD4nzddmG6/liptNohPrjh1uwwUwkKdpevLpHXekh+esbVmYMtMhmSDYi/I"
            "3+a23u1HgBNsmm4jbbkwcnFFSTQ6BzZyJdcXdhdjFdQYZfC24tXEWmOxe4P49Pqc4ylnKpr1x11O"
            "Eu1G0zyqeerlLFhhVzukti0f5uYTshd7OzDbye77XE8nBi4vtNd6kYERuo+cydGOWtk8aydD2tEx"
            "AFvndPvgmqgf864L9bBd7I6KhmAnskjY+ol7vUWhUclFi81ENOmb1RjuXeefh55WYvQhlBXpXOYX"
            "rYZrtlz9t4XnkDoXqmjakQi6w7Rw1fAB5JeXt88uL8Tg3QaBt4UK8bnO1hBmp1bYbXeG/2FtGxaH"
            "TefqanWA8+g9Am39X2o/nalJt6fibfe1BGkJMua/cKNdHx5EwjeOpQCnKtR14Hh+NrYEdtWYBery"
            "kfGaeKwb23gN5ot1F4VIdaDqV5YsYngZbGIQpdTUuvCU0Z/aer4y1E7Y/DbapwMX3h2KuWFFQYnF"
            "oGOXLTrwUGOs77UaElxTl5zxPZMDntuYSTp2DBA4nrlydCUeju24KWbUWYCnHkQ8OrGnHtkinPLc"
            "TmaDss0/TQl7KajoyU256VyLVcOfDdy4aTgYzc2W7TiIY4yCoF7DfpwcTbs7XNaN1Xq/cg7Pd2P5"
            "7e1XC5gHMGiidE1KuRSLPI8tPJCiYY7aP/zNYW3g/GtoY4lVFe4a27uH9JKOBz/+6OtTqwd3yc9B"
            "Iv/2YQBrPFmncwBfbpJy2N9Fx58bfv9Y3pICThfZVNUDqehwpLlMvLMNs4z7l+FeL5a+ieCOzW1G"
            "zZ/qwvd16Gh45tdABF8l5mvEiLs0h2FUQrj9Z/sSvDnkSt433AgeVr0BV59UQZUCN13IjY7vTYnj"
            "85TPQPY6ru2xl4F3+9mFmZcYOOI8qsla040qIlov08gE9JiWZucl9SI9xFI5jkjFZ6x/N2So9uGB"
            "bh2S4KAv8F00a8//UIC/VqTbKBVxGMyVLnHeKRcnX6h6u6TUgIjhjf177tPggNa9o5zvaMBrUGos"
            "dCgdU9gvecwMFqG6esmpt6/bMTxg1ZSZpRHNO087bjZLwE00vV0PqEWYqXpl4ulzGtrejAs1TGvA"
            "M5Z139/bDeOpH99CtO/T0INnzWf30ddAPpJcJAPVQOrhVHlvnozeDU0smXptEP5m6+M4K4R5pzf7"
            "1aXaIWz/L2Z6WQSaacylfN1Iwm7LFiOFymJU/8h157o2GbODxYJfb21D1s8/XnxbQJTnU0ixsPcE"
            "QqvPRHYnGerJJfEZ6WTUPN9eKr+QhO2Hd5hU6jZjOZX2ov4OHWisRo6Bb0ZQoAIzdS+T4M73HQ29"
            "Rev86/v3UFmaB0RnEaI5XrWAEaGb87lzLZDudYfaG5ThYO5HnR73KpxLCw/cdyYKCRuzvm4UI+H2"
            "UG0J5W4CvtnpSpTzbsasylMRkT+H0ctFddZCkoqSTB9V4lZrcOW3TAKr90uM048vlXdNwHdNYocn"
            "akiYJ7rNQ+EvGYLsNGOHudd5cHU+8uxhKpLDZqoXJ9uBKXmP5k1yOgoTotliWatQaZPf7dnHg5jA"
            "4DoXHxqDEp//7V3b0IjqLKM7Yy6VwY0Iz6vGs71oaaWdsmDdiwZztXzPfbpx/EC6pk17C1gkuTfN"
            "7K1DyrYUV1F6G6x+OXPliD0Dwss3psg5tuKqSdCcH6MZP7oEPD7O3oGlQjznjr9OgO28Lh59bN1w"
            "5sHosIwRAQUSMhpvd9JQNpjzY6pWJ4pvGrA89ywVntttC9IcIuGQdXKC4BYqqCpYq4dl0NCxL+TR"
            "3q/5qBLJ5VG5pxG3jDAl6Iiu55uUQf723A4INzYP3G1WhESX3oMvK1JQ//H+zfcGS/FAdsaJY/fJ"
            "aNZ4rkrgsTGYX2LU2MS24uaUcbeWlArg2c3TdIN3BOcye3h75j/gk5D2wzwfvqCpXLXw8+48LCOM"
            "yifficX0qZtnHn6rBS89f595UgJcYWPrrnSjgpCDe3qidxe4nFCK1JCi4GqqJTXCuQPPe+j+teXt"
            "xp0Zb2XZBAg4LJNZmeVZgi1p0W673hNwUjOb/75zO6r5uv4eediKlk/leaWhAxUv5K0uUGLX9fbi"
            "8JEuIvYZ/SOdzEpFm2mDe3OqtfBoX6Dj4eFM9DPb9UYlKRJzawr+NCTS4R9L5y4ByRygDp3fIrv+"
            "r+9c/+rqeaEXMh/ahQW/ioPP863n7X/WYZR1B09dDhljEu1JV6fbUdGfcvxtRAf2fvVTpHYhqHLR"
            "JmXv0JFS9sIn2o0CvbqUvqTKAjzpNOYn9aoamKiGwW94y3B/VLDCORY6yA1IZCS3UqDl459pN/VK"
            "5ClhJAfu7sQ/rq717KfacFF3h3JzuBfmcv9M/tKTC08i/l67qEvC59Ez1hGh3bjxV+RiXDsRuYgH"
            "Khd947A0fu948FYG9v4YFalK6IUnZPaXm/yL4exzVWeFfVQk5hOSjL4UgcmU9fu8cTJ03FxJPpaW"
            "AUKNv+vM9NpwzO9Wtck676+eEmt5NBOGn4j8nFhZiEPeFRtgRxs41n0xZ9z4BJz8Jse/SDFQYIXI"
            "rlxLQsfXV09FPy5BMamtT2zHezHtIE/PojUdmJqjbpZX5qOegkPfpZAqpO08G0qMacBDEkwkg+FO"
            "OH0+6Kbu8Sboqnu5PJ9Wj22ic8nhbeUgx1X2V2OlECqlLjPSTF/gtpBfhOUL7ZBtFdmSff8TPOPa"
            "GLyBuQYNlrp23n5VDlUiBSfrzJtBOES5wFAsGXV/cnecaeiDumlV1HesAa4oEdNzIm2QeYYvJ7A/"
            "dl1NHHPwLWiEVy9WHO+tr6vUDvYO5KjBN6L5r+47UlHL/GI//cV63lc8ur3Bqxq9r+3ccGEjAfuq"
            "J7WUVXOB2fyShkZENY5eFbHWZ00A+lJr70JQP47/0vc2j53FCBGjCD6ZIuSeMJuV+ZYD2zh2aWdV"
            "vsdCn+RyWmYj/ivsEvC5IAl0Ncs3kjY0wjU5jTvx1QWYohF4RyU5GdY0ufKkFluB38AgvmJnPM5H"
            "GBwYozdAMfv8Vomn9djACs/LJ8vx/qTHVosjH0DnCfsYMagSx84Kvg1u70QGwTqtIbkZPNd4O3R9"
            "1/2LdH2IiCYFuHNKo3f7t2LiPuew94YMWDj+1T3xNxUUFZOVrFLqIcTMIr8hvBgX9awWR9ie40/n"
            "wBf3ZbOhws5A2LUkGba1HvT/AwQMCaC4a1SlgLOuj3LupX7MKiqLatiQi2/NTd/scOxHY/vhIJOQ"
            "fGBV4H0/dTEFVll2j5oJpuPCGY1DVztJuBZUGKVQ2gxyzttkgi0pIPFsZ47+FhoqdC2tCa/zr6NW"
            "q27A7RQUlD9+xky5ER98zBxSNSqFiebUkRhWGoRXHmCNZdDQp0em5pFgNCSqZcqrZQ0grugVdQi1"
            "oGcWdZBBbYXcD2vixJVyPG0lShnQCYblnw9l6OVUFJjcyLbnuQs09G56muZbDcL2J4w0hhoxo0y5"
            "9kBkHfp9l5kMODAKLMYhsltUq+BHzMX75CAGFDGH5jwzL8W8maqWNG1V2HB16deC+3NUzmtZ+6tM"
            "BTe/vvRetmE0qnnH665NAM8bpzd2K/dg/vLyPJyeAKbxMBcI7kalTAWHtl8jICQyw5taWou6qefP"
            "bu/pAC7/JpnisWzMUQkfG5D9gi+uZ2pL9VCh9+ucQFHmGPr13eB0MKhDy9nsV0l6Axi+Kfcny/V+"
            "lB+/+KzPjg4jiVPn5WQyoDttr8qzjkHwTqpTnZUPR90heW7N5Fg49NebFMsogwBOQ97gzgHwuvLx"
            "kNEbHwg233dOl/AaWwy6jX7w5UOFjhWx+c57yH/gJOKvXA1p+nzk8Rs0kHRsTZq9/AmvrZfmA5P1"
            "OPevHkUgvx3jdq6F8hg0I7tjM6kzchBTCzcJqtpS4MFHa+XfYZkoedWpPuIkGeePUxxLDdb9xcH3"
            "tq/OUSG3RFcrJbAAiy+/ihavp+CO7JyUQFYiaqSk6gRHNsCN+0Z58cJ1KG/uPVoWngD/TB/TLJzO"
            "Bo1Zv4fXrdLxY8mPN/2DTUhtMyZo3E3GGSPtD8YuI+hVO2XGuS8J6dtxs4vRG8wsGXX3DcoF6R5X"
            "Z931+iO3pUcDSlLBO5o5u3e1BmTZ/eqDNOtA911NuyETAblp+VkFJ+pBbuqvQEUHBcdvLE3RxXOx"
            "NNDH5VPGJ8x6KRvOfbwN3y021T35lo9BZsfcHn5shoIMiz3n7Sno4XAjy/MuCZSmCjpj7hnA5yLv"
            "4htlXetHOpqeHsqBqulMnwM76dBr70pjX65GKa1niWVO1Vh9m7PwbAUNLylVlXzpSMG8bkqUWjkF"
            "2j8pBsuu10fPa1djh8eSIdDj+sszd8uRibJ9ZGoiGK/uaH98t4KKFRlZN+kGrRicqzTpTMuD6bOV"
            "am2sNJy639LnfacOomP8Wt9vWPf/pwZOhi4RIavG7+SKRSd07LQ9VlxCQkXFwMPROZ/BbsuM6v69"
            "ebC1XmYvOSYRXt7qDP47UoN0IxuhsMv5ePKYvmcNPx0F1Ci3RHyoWGfUJfVhqASv5+safxiiYpRs"
            "ANNURD0sHiksV5PKwU+bo6T4+athqjBrUsy5FfckMG0yJdfAQ/uBwuesJLBM9ohjeBSDBv/UmNRU"
            "HjoSfBTG8sPBSvHKLZavBciwDWzWX9dzM3KxLM3rdWi6K0P/wb7PaFAv5UWpoqGn7lyMHaTBBfuX"
            "pOkrVBRz2xrXPNQOXyWrRx24TsExK7K3/mAOToVtN5LeSkE/t8gL9ieKAB9HikNDByR0XVQTsanB"
            "jOcGDwbjapDb4kywsl0SeL2bl+Eik3CPyzbmC0rZ4On+b6UWIRcPVPvRVL9R8KJ7RiWfejEyOIKo"
            "pr0fwUmFVTbyZAyaZghOsVwuQZaIQCZTQxJK6tdelR9og/nHVr3asvl4rpD86ExvKu6u5+lJNWGA"
            "xv5ldnNKAQglXowVXWjH100289frqiEi/GnFG2o1OqZyVLNmrPua812RfpqFMDr52qAzsRa9VMdT"
            "JI/04sL0xKmoqUoQMfU9O5/agLFhXttm2Eog/btGZbMgEd9fEejb/JAAs2cGOD7vIkOREktusQwd"
            "5FNWBEC2GE9pBPFPPqkF01sH+LMJFLwl2ZJgsbcMZfwkZ1SCy1H/0EoM3SsZZuytTVhbtfBd1rUM"
            "Lol6bNbkGDoSM4aCPiT55YvOeOidpe9cIgHtn5y+2yaVAwWTnzk4Oftwx5tsU7J4Gpz83a28pZwB"
            "5Y3TprnOnRCp/kM8P6EF2fYrKox3jIPT8CjztcJ0LBHKZ7GsT4G2vT09t1OJuCzAZtHuQgcfC49Y"
            "s6cM3Gl3coXl/+Wru1mLpWk/ti6Nepy1jcQVISk75tJ+VFdr6sxfrcLNAZSE7aeoGKfVPjMhV4K1"
            "reVV3sw9IJM31XdidhjsuO4eUXmYCwGCBVOK0A2XymVbqsU0gJc7xmktNA5lCK836CYH4V6JBXbd"
            "vmpQVw3Mm/hWDFpWxYs7gkqxpkBxZewVHeffmS5V+3ajYnoLq+UYA1V6vixe+UEElaVcN3u+XBRW"
            "ch0wMmzFjweuV/kWtqPZYwn++pAs5EgKIhIlUyEhQu6CUac7zl9K8tc7HoNmZ9OenDYvAzc5wabC"
            "dX3royN2aYtcEip27/+lYpeOOwXVgjqvluJvJVcbIfY2fDgAD16E5QHnT08S17N29JSxNZEdRhSy"
            "Hn313bsetzspHsxQaQf5TzrTxbItEC+ttEGquhVA0W/wvlElDEqLbi1sqIC7oTqC15/noWuKt3/c"
            "lnd43rNmmU24AKd4tu5a8qDi9QeCY4JPwsBUQNixwqYYr0tJpLpm1ONuDlbJi3+I+MeHebA/mIat"
            "fP77szIygdtGsDLbg4DZg24nrXzigbusOqLrWCNe8rfMuhxgicx3GVKGEu3wwUH8R7v+E3ygv/Vk"
            "/qNm/HHlaedvnwo4IcRjxx1UgQ6iPtKhw7X4waBhUxSQcUTfq9pyoAp/bNdOqZxpQ5WTzp/TZxsg"
            "p+1gxLXVasyufvHnWWoJaD+p2RV0MQNt5J/pjI5VwNjgznIbfSpUeCTJdtn0AgjUpp6U7oRgx2QW"
            "w2w6CPMMja8ERsHz9IIBLccCHOrdLPepIAlbJYhZyqkVqNxZXsN7sgYXPcNDFdmK0OqR2r3PlVXo"
            "EzaWXrVrAEpMU212bi9Gs+I/FuZdhcjRIdz/1LkOrTkyc9gvtIG9YCKno1YD3vHyTngxSoKCKOaJ"
            "yzoMKOaM8/w+6gdMCXG7J3bewrGXpeFaEXnoHfyjosDfB4+K8LMsruWDiPF5kWr+TPzXcEe3xZdc"
            "jHwY4ftWawg/rbD1G+yvRsYHU5+mbeN4do/fbClvKkb7HIjujErG3a5/XPZyN2CBhr2bg3498CkO"
            "lB+9RYYfM4FF3AH/YrC/0hV/KzL6J1Lyhtb1+aOb8X9r0vLglsbmDaRtDOyeDdtVEZCDdaJ9XZdY"
            "vGBcm+Qc0UHDhwpLZUI72rBhLrDlH5MCvGM6lPRRowZdNS8duetbgv/E7BU1kyzED8Emdu70Eij6"
            "++rhj2EyiF4hDtQptkFwgc9iolYP3LIRPdoUUQZNETlEJkoDnFu4nBSiVgN51ic20zZVoUHcoqTm"
            "zyb4aXXhhN1bxCS/o6+XA+qxQ2YoU024HY+dXtjDX9gKqX8ef1a/V4fOJtP8n4xz8NVw1HUrk0iY"
            "NPK/arNAB40jldwSqh2Q5CN1lxrcCtpNKuLL9yuhwD3Cxon/DTSUlE03X8nHzNTq3N8lsdibVcn7"
            "OwTRP2NGEz/nwXGLA8YztwsxW9royee0MhxV55wrKmnFb7tvJBnVlGOtB0trjF0zvnTVOdlZnIpC"
            "Z2SuZNzLRfMTG3ucq4vW/X9w9ff35qDZlXBTYTEB+luCbeuONoK2cln8zz4KdMsyZZ52zcVtZAlu"
            "p7OF4NL3fjVMdN1HW85/XWapgoGDZeeOauaA3vOHcml/yvHukjnrzU8MVDiVIu2Vg5h9MX40OL4N"
            "OVJnNR3Ss9D10uK7+zbt+I6PQ+Thrlz40Heh++CROmjW1ZE3PlcIl+mhY1bDVQBjwldSommwzbl0"
            "zoNLE3utiaHkiVpgFxCO8pKpwDUfl5A5zzoYEa/IS2NLRledJfld/wQA6fROldDANiyZWOG+U1sE"
            "4ibidO5z/chzb+N+idUSHOb6o/9BqQylMr9qCTHRgJK+tF/wWCL41Z7ddudSM7ymhRX/OVAMmy+d"
            "fxT/ugQ3FX0r/Fhbhux1KTDQk4eawd+X55irUHv5nw9m6zygVs++RO5koGKoR67Xt3q0i3mn787T"
            "g6KV/ALRc73gIjQuvzUpGZlPHBN5t+cz/gzp4Gl/VYxf5NLJ09szQJ25LtNJ/j16OjhPS/KT4L1C"
            "Z9qVS31gbbdz11eeDtAde5T1YKUYyp1ZjHrn4oCWfpCxpSQNmNnEp2QsmtHInJnXwfQTUOWsnCM0"
            "K3Dbc5137oQujFceXY0ML8XH4o+7VzNrcbOXw3e9tmyQuGWeXJmwzvdZb3cUnH+Bew1+93VwNsHT"
            "2sUQOcMGuGQVWzBOycSzlxi/xv70w/Z71tKx0gV4tFGAzPWOBEIC1zx6DBPQ80aYcyRnHXAcdhVy"
            "MqlDsSTFN9d9i/Dr086M2blWjNmX89N8tRa4NTf35Ijn444blJKqAmes172hGb+jan3edE5eNxWI"
            "AzwOqksEfO8y/OqkdwdMerxKq9StguU0L+MzUo2w4u4e3LZcCsQ9xpJ/eQugII+WEuiDKHYtpb86"
            "pQpTJPdnBoQXgArJ30O/pwS37eu7GfKgAqVOX+OI3hiOVwj+dxUGe5Gj7fOTW7vX8/j9NReGShUe"
            "er5oV/27BfS0/pUUFK/FptlfDHHeMrjUQj7PrtUIhIXdIi1yYVibe/vrOdF4DJe1C+716oBjzkUv"
            "Z+Sr8CfbWNZ3nVD4H81a9oE="
        ),
    },
    "lse": {
        "dtype": torch.float64, "shape": (1, 1, 66), "stride": (66, 66, 1),
        "offset": 0, "numel": 66,  # 0 of them NaN
        "data": (
            "eNoBEALv/QAAAAAAAPD/AAAAAAAA8P8AAAAYKbjkv4wZbI3Gufg/+JnYUIPl6D+g527UwUcHQFRT"
            "X/8PKvs//+YQ2RcxAkCWaMrBUvH8P8hv1xqH2wZATGCZoq3DBED1n8YVGR4EQGxGhd/LvwNAfFyi"
            "hsG/BUAHi1W2s0MJQPCTM92OSgZAptV7AGMeCEDO2KAGQ9QHQPwhouLwvQhA6tFconTcDEALSXzy"
            "s4AJQFDJIjM0BQ5A5JsVad6qCUBK3LeMBKMKQNZeCGUI6AlA2N7f/ta6C0DqFHAR4DENQL7zQb1a"
            "/Q1AN8uswj0zCkAWyO61oAoNQKhCsjngIw9Ayg7RflE1D0BZUEQ+0jYPQPleOPWWGA5AqZBp0/Ny"
            "DkD6F/trzVoRQIsgcUTd6A5A6i6inCfsEEDx+mFEoswRQNd9vK3a0BFAxnC3HNdZEUCfp046MfsQ"
            "QIWiNvnjWBFA3GvU6a+JEECnM/FP9RESQIBpexOjBhBA1lGYnmdjEEB8t0nXYpEQQNTf4wVVHBJA"
            "DB3Ml/W0EUDWigU4RVwUQPjSQTcQ5BJAyruLs9SLEUDiAI1v7qEQQIN9gv4bvBFAnZ6YsigTEkB+"
            "EGHBfg0VQMCscnhGKxJAjuzV2Ht5EUDIOWuJEwwRQMsupxE+pBFAme+f9b7FEUC/U7BRwo0SQJT4"
            "rkPl9xFAMIcOpkFEEkBmCpOEUyQRQJAt6B4="
        ),
    },
}
RESULT_DTYPE = {"out": torch.float16, "lse": torch.float32}
BOUND = {
    "out": {
        "dtype": torch.float64, "shape": (1, 1, 66, 16), "stride": (1056, 1056, 16, 1),
        "offset": 0, "numel": 1056,  # 0 of them NaN
        "data": (
            "eNrll+k/Ve/bhjWpVEhKFIlK5sK2532utQdzCEmJpEGRohBKGkSpZKokMiZCSMnwTQOSihCRoRIi"
            "pUFJRJ71+zue/Wa/2uuz133d13keh5jY/z4uPLH/p98WF4pPMRq0IHn7k3WbuyoYd/sPlSgb4dbN"
            "SEWJqSSilVJUa1mbQSxOtHErNcFTp76Oc8ki/GFuy3NZZonpYh+84pNVkbS5I8+5wgxd0ryEb7zN"
            "ODArUvzuN0OIfQlcfEiVj7C1D5bRftvgaV9a7Z4jysgwfv1AdgMft/RvDLh1rMWgo5X8vV+G6Oyr"
            "MU1JIWE3R1ebk0Rg143D7e/Ym9BU1pAnhAiyvPJtVydJOP13Ma/1rQVaeT91etxW4IZPwC2jXiEc"
            "K3Rifog5wKeeVjk5hYY2zY8rP27nQKg7b7grdx2a1ras+pi4AhOOOh43dwEGHI8yJ44GCpti/hqn"
            "auOsTapl2QsCzaxpWdHa1jgtkGm/I7Ee/cfL3qlnG0H6wsbfIx8MoLz4R9ocLzOMMVeNe8guhmZZ"
            "zr3vF+nIFptC7JS2hs/2tKqgCiHI4x8/tobw8E/SoqrF2RyRGm4Z9+UBry9h7tt38LD6WHGeMGUt"
            "ZHcWnXujaIjkdm+tz3ImYMhV+awWmkFZRO56etsGF/S2fU2RE+HZ9YKsJCs2xGl32xzzjDFcwSgP"
            "SVyJmzKmVQYxDFTXvfn0J84G11e6bRWI8/D85YK8BeE8yOZPuTGua4ZY6eiLm+7SkE8qH5XhMrDo"
            "wZqc3dM4UEszn3+sWBf7fHosU4QW0Nbxjc5jWEDuXvLCNSamMGOtPzLvtzE8bKYknJ1uhvSAk7PH"
            "OLZQuSxz4NcjAlaeK+YrDekh9wd326lf1njxCqqxm/l4I1n3q4NpiX1VfrHDM6xh7+94ZvllOdhb"
            "dwfoWAphku5uYT9fD4u3VyQdzqPOY3eRlGy6KW66SfU0/LRA25/vz2ZUb8AxhQ/s4AgSu0JeVvV4"
            "08G4r7zhwF0REm/bhdgINCCp4tNwYJSOgQ4dj5OeZqgtlXik6cuFbFp937Y6PpwNb1oMzuTjDk9f"
            "aVm3Nnpzjks8XEwDX/qgmHA9HSmSvLMq8zm4miq6bT3fDq37z7Z+U7LCIRt+/+JRc7Rmhv+cM5XA"
            "zad7Oh7O4CE8UewN08ECf5XbJLQFBrBIKFGXkKZjecDE1NoyE3jZZkxW72fjOO/q1rASEsn7v7al"
            "DJKIejo+RPxRBdNx1uaVaixIrntlu1qPjmHJZMmDA3S0OT2RlM2wgZhO3vMZ/rYIm9OX4lxojejL"
            "ud+mP+UiTY+unipuiEGf6xsXkkIsYzwITwrTwlv79XkLmvWhI3XYKFpLgBPWvluXzybxIye4afgl"
            "Hy3CQzfTSrgQZdLXiZUyYOZvOlIsxsfI9DfSIUmGOGDv8++bHRMa5HuHb81C7FBbfNZbwxLlc7dl"
            "GZ5ZjyP+PXUW9TyMG3ECfyrr49wan2F5KxIxdcKZw+o0TN+wyePpnrW42k/PfDKPj7mTJi1pDQRW"
            "958/GxMhwLhYkHNOCg86steZnif0wbdfarniJQsrlII4p9/pI0Fek/3oGAPFjyL334kl8fm62mRp"
            "tQCW1ldOJ10zR+8qb48TTmxElkxuKpGm4RBPxlmwk4+b3D47v3oDnDEsLHUaMsRJY0vZJ7v4mK7r"
            "1PbyiBC7jnZdsEkH2uuFt+39STTY5xkf9eLBKEtz2XI/OjJ1kodX5uhhYYlY4NdIUzw7y67I2bYO"
            "fXc3b9jYRYK3KP8Of58A/Vtdlj0cMABq2n3mnqRypdtRemmDCQJllqckWgnQ7rJhzs/1BlgxbHrh"
            "uj8bmi9mPqo256HfeCR56gc2tr6zvJFWyoH5tYJknQIDDKcl1ynqMbDKZ4/f3ylrofG9M8RIzRIX"
            "J5dJ+UoBisEh1+wLSQwnP/bceMAS0hoj6WONTGy3dx8W6OkjLv7P234zLhacERTvzyVRtq1/yse1"
            "TJzeq1Tv0MvG4/adF+uemqAo58zGvEQ6zi0t391/ng+f5kaZ3EE2GPxrdhZixli0csGW0OccVAy8"
            "S7XV4UN6xtu8JQtMofZJ5cC2Kup+RASPa1dY4a0B71LPKAvHTe+/u2HPgnV029zv41Q/LNbsDrMF"
            "rkZNdZ2uS4eagijK3YvAUY/abdJsU7wh5/E60wl41cplO39nYfi9qf/YZl2cXWy7OrVQD3TP1vvj"
            "1/j4Ef5zzGYGC35vmK9VvpvBek0udiSK8C7hyt6dR/nY4bbaMegB8KHkuZSPDAcjgwPeCW1MtB0u"
            "XNrhy8Gei1yvRQYGuMz+ukXRwQDZHYzGxW48+C+rLX7dQyK9sXJFRSgdf70/f/H8aoQPihYxZCYf"
            "pPUS24ZCAtEl939X2RHIKXf9za9bjz2rq/jyMQTsnM/OPwkS/yzumfCofJma/zxiw18mrl7a2/It"
            "nof/eO/zDu4lcOTyGa7hL30QvYF/NDYxEOGeoDrJNMSxLWu3J2RzsFWt4r3bfiGa5hX61zoKcSIy"
            "a8UHHwL/vL9GCWqF4Ca6PZIKJOE3a3dYYpMZVvyQ95K6QuCFQfWb3Agj/B25rLzsGom3p3uSL7hT"
            "93TtCafLmgxMVP2IYS/lgxthftuzkY9xBa0auYskNB4QipGrqT6sCz0tkhGg+K1Z/ldZAvGjR82q"
            "JvQRsdQ7QH0D1XNqD869mC1CFtGQ+YLgY1FU18ud1DzezYn5IFtDwvm03683d4WQ0ztiU8ogEHf+"
            "4vR0ExI7PA8rztLioY7Ge/FHTAD+2wn313UkFv7mBYjUBYgdmuflOEMAncCCUcnjJki5W/dPpozA"
            "xLdHqS17aGh9TnQ6x/CxcXVvrGupETbH2//WGibxrO2QwfgcW/zUidh9fQobqqIWFadxM/yN/zJT"
            "0KeD0UylHlUZA/gJzM/kHBdCjxGnP2LOR3v/93v9ugSqTzBaXKh9nIx8uCkriwlNY61HkXwSym72"
            "u44/MIF04A0DI2MD2IW/V3rD10O2lfzXeiYb/jr0AcN9BOqNgkZHW0iIv9ghceMfDyufy99dxTTC"
            "9qnnzVer0TEo+S47SleA1WXGO6bkCiAuGyYl1DaChtcfR58bLKgn7bn8hq+PRTvUev5kikAL61tu"
            "qcnFoELwI80HbOx3drVqXmKAo6mLa9YVUf2rdO1JYy8TxwIr7581YeMmY9Kr4CcXHWEp3Wu9zaEz"
            "25XokzRF6dma0pOjJCJNrzcfmEX12Y09TgW/jbD3pX9eFocGB5d+pQuHeHAIn7DIvs8EgTdeAVFC"
            "XA0SpM9nCJE9P/7M5f184Piu/cxUPpQVuk9ZbTDCscyTaaJtBNRUOXpRQQzsk3SeZZLMxYymuutv"
            "Zhhh26rUrWbbTDEUNDoS/ZmFvqHk/DvVXDze4lHsQ71PzJnMYYJkITy2uaTvMxMZ4hfcxZp5MMgS"
            "HnA4xEdd5CLzZg0RpEdjNwwe4eKDYMz3x20Sl/2fvPzYwIdQ9Vyo1DEB4jPm+PSepfbkama4XRsf"
            "wVuKp9SJkfhUny2r8dcE9JflKdaSNKxaJzaTYW+AvBhhgYsLA+1BujOTLjBwaetKpdFZXEw7zgyy"
            "VOPgeZvKnc6vAuz5PRE/r5UB3Wl2iVMOAGJ+i/6roZF4yIn+uzAIWP1XeUThBAffwpPTwhhspNcd"
            "b9CuZSNVYbDNPlsAwrHv5KIgc6jnKbLoAUzQdJ8f7Huqj5f7Z45yj3IRoLcnVP414BuYOr9yOonr"
            "D9XdE+R5CNZrMjnVx0fxjxn55BIemuzcPc6956Gi4er1xixD1JC2K+dLAjJ0f4UItgiXC1UOrmuh"
            "w2ptmNyyFn2EaB7rmV7Ih5xFt8nbbBEq56Q/Mc2hYarjp2372kjYR/3brvVEiMzXZ3xjt1sifVGr"
            "pOAOA1NXTdhz3wBLC1qDX07QoeBqWGamL8SYeXFpFIeH9A/72r+bcJE7Gck9pcVFs3bMzlk1LDz9"
            "VzlW/peHVM2JKCtJJv7Fk9nbNhmhzuZO/O4Gc7y141yrswGiBpanmMhy8NNTe4G/PhOHOrt2B6/X"
            "h7wEX1bLjYWQjIdRT7xZaLyivjpsgTHObW6uvv+Zj5nP1kn8+ijE68KpffwsOj6LxR382MiBtKD+"
            "n/9+yjc8P5ovdWPC0Om6SCuOj0enO3KVWkl0rkqYsjHCFKaqercWnhYgmbNNiXgkQEx6YJm2GIFZ"
            "dN6MkkkGOkqLvLJnAz6FR6b48gmM7fY2Vz5lgtCFws/MEh6EFjblVoYCCEb1nBb1GeLxvb+2b7+Y"
            "IDvUxeKsCcWdFt7Pqo9QfBi5JVWP4ofx1j0JF6j30DqyW/FqBpV3XjmNYh587L6jO5m7mMDLuNqz"
            "DYFsvIy4csi1gAvX0QjGkVMEVp6a9l5PRKJJZsOyh0XU3DWFcpFruZhdtrO/zp/A+Ki83/4wEsVx"
            "Q7GLf9Og1T91X+YTAi0a1nODd/IQ+E5DzHmzBT7fqMi3HmfhXq5H0ulzpiC488pkImj497foZeID"
            "Kj/SFmpva+RCetMCuv80JnyUrb69ecVBfc+FguKFfIRKbLyntpUH5Xl+B8lgIaam2xb7tIvwfbaP"
            "jFYEB7Oa/9WabKe4JGH7eogIfJj9KHbmORJqLaVhZi4EGsbOfFgcY4Qs2p/QK3/4KA95W+qtz4NF"
            "ivhXH6o36Y5SsVuoftTuuSUaXsHCeMdhq0slBohYne+3xInAJ1PfWGYIARnF6Ah5yv/0K8m4S1SP"
            "eXqGnjjxjo5T/57F203wcXCZQzjnOwci2rTuqwVCyN6xfv+1TQSX6rm06wu4aHN9YXVISgROor+T"
            "WwEPocf2i+tVMxGQtHFu1yiBjbs2Rfe5c8GyOCi7t5aL+mlG2q+/MCHLf9ie00XAJtlDYWILHz9/"
            "Czx6hSL0fn1/e1+eASovPl9O3mSiwtj/z4YTBOVVb9RLNIxQOeXi54gxFl47J8xZFkdHq+qHHVb+"
            "QrT+7Rkv2CJE0OoX0UtJHnx6Y58WBwqRJe5waGguC0eL7e0H2Uy067RF7iiieCTKOjCf6t39U/bd"
            "tY9ko+MumVe9mY5YPZpd50oCRJbrkvReEpua2FnmxiwknpeqSbeluHkw5G73//bx89HJE/psBAQW"
            "1TwMN8PUDWFFz6IJPOUsunFrMxMfdufoHae8a+6ddOfDGgRmaD3NXx8qgPmE8kF2O5XfOx/kft1F"
            "YOorgzvvqzmgX57WMdeI4r4l7kvPBNNR2m3+OyifD72X3RJrTDnoHbVqCKLmFeKedF3mFxf7TNoi"
            "flP8vjxl3o+nr9hoNbSLjzsphEoXszpem4ThCoZdb7IIYr4ppCqfD9aFuX9vE3QkDf+xyt3NQXzE"
            "GtPG11z0y28sOqMggFjLg24vij/MRg1rBroozjixm34oiXrPhvwl3UM8uCmbOvR5MGFuUKm1KlsP"
            "Y+ISUy9fMoHB/smvzTJ2SFCumHH9nCH+jc3Snxw3QGwUO2Pnf2z8butXSBxjI6V0xLBAlYMnGX5h"
            "JpUAGZYvyvnDQ9uCI8E91gxUVAu3qanz4f3cbZVcoT6Eq10SwxJ5ULtkGnfzHIFfQ/M/ha5nYWq8"
            "pMLJWZQXtNtstKbqUrnsdqPCmDFWyRzbImon4ErLXNWoyIMLt/V7ujaVR4TUT61TfCzobD0/Xkbt"
            "xWIvbv1GAjUZ/DZ5am8CfFZ10mXYsB6ObdxQSeUBjdEnYW+I4HVfjed+ocO2zKBzVgwP+5wrvr/m"
            "0zHtNH9XkqoIq0Ye4Wc90LvzdQSTYwrHxTX2psM0bJf7Sv0jBhKXx00GCAgoCx5tOeRKx/29H8bY"
            "tgRG138u285gUrmh++PnJIls2X0H7NQIGFwP5DQYcaD06rAFNQ4MeH83ldLmwbuvV5ypIkC4zP49"
            "T4fZuPjJ55f6YTo6bontCioxhcVgxQnpcBHSAjSVzY7xYS6eXbk3nw71vRHupqo8fPqwQMeP2v/f"
            "TmzbthX6eBi7U2dFNQvvh2rPeFP9rmBYYmmszsXQNwm1A2XmaHaQmq/kxwRL50rUrUIhIuTTvWYV"
            "06C+c6Hj472G8CgIf7z+jzb+XGpMs5cSoE6Xd26+gxm+JDeNjqhT/rTmYVhfqAgbnoeQmRPrqH1c"
            "3vvJ2AS7hjdZDF0wh6qfwzPJdzzUHoq7q1kpwrYHzR5escCokY70ugZjRERb9tGp/h9y3bs8XmYd"
            "zobrsWcqAq6Bbz3GTE2Qd/rf+k21VO8vOiHWROXLmtOOx4MeU9766NzLaicjGN3o1NJayENPSK3b"
            "okEe1msPPY4kmOj3GiqYmyJCyqY7AeKxHGhah72+eYmN+LVMcx17GkwaFFfkGjKRGf6yOCCJwNsi"
            "u/2De3m4rRZrsq4FWMnUMy61pnrqoumRJZTn+G+eOLN5nI9TS5tCuVmm+HpkR+JSORaM3uSrXmBR"
            "/Vz1fpxXyYdNX/GQxRw2Aps3Zc+ZBA7fDJ/ZuYgGC02b4BYZAvs6uqJ6othwmDpyz0yPyh2b4ozN"
            "ATwk1R8oChGxMCVEWtnEHXCzY0b1BLBgIi4/mBnMRV1TedqB03ysOWipLi5tjotvNhVpNtFBc/Hj"
            "Poyho0H14c3GnVTuhnDe6VHzlh2u1dyZxMTqwHsat/ewsPnm2qvtFP9s8ZxczuNz0HE7wUDsAQ/t"
            "porxXY5cFHqlpkscp8NFYWXQ0ed0eJwzebieR4IRsz436DIPR1SWzcuj/EQCz6YbUj4iSV64aHCA"
            "jSvc1xOO20loSbHI7l4hFi4+6inYRuKE6+Kru9UJnHKcXcr9xYHNx5OdXzZRHNiJy/Z/SJz3aMp/"
            "5Engvq8pp0qZhOU8dUc3iks+fcyZ3apgCAeV9jeBo3pofLPVjj2oj6LPhr29UXzMPqRyyKdKCGw8"
            "SXrJMPGHViRQCycxtjpFWUxegH50OjZW85GTm5x9MJCA+4js0KmbQow4dX/zpbywhZiRZv6ThfKT"
            "aRrjaVR/Voqn/whmQpI26vIxEmhf2nsq2p0BvaKVSZk8gNaUuSIsEbivEhFuYUzxWCh9Z/E0EboH"
            "/k754s3B5nR+uc1hoG5qlkI1lddtebrflz8W4PvrF7U3bbhI129JOq7LwdTTAzPFNXk4ZOsgCK1k"
            "4G/z49eeklxULddf8uU8G8d2uBe9mE9Cx+tBzLcSAVrmOvCn/zCAUuouu1AuARdNLL9lQOA/7RUP"
            "ElKpPQrqXLvjFwkfw7jW3wMMLLlaEvWggotijwjlO7+p+zdV8pAMnwGxV9VNb5sI5NItV9WEUxZi"
            "07TUI4OHfyU2ifPaGPBERLETxem0UrGA5oMsVB2uVvgwzkH3mYz0Vd8oLqH7UZeaiT61hMT4ImCs"
            "d6hLo0uAKbPjXb6MU5zj+aRIbDUfO5SXVcSG8fFgJiPvzHsCWxx/XIqn8ivvYCbHjeI0l+XEO/Mj"
            "JApN4sJ9KY4tVHa3FlH9Wbfxea5uH8UJbxJuXs40guL7qLdSlPe8Gtiqm9LNhpb8BevQ9UbYJJV1"
            "ek0JiZYV+W4L9fj42D3z05wJA6yoCauXdgLKst/LZJ5mQ4ce1RiaDLxyNvJ1tyNQSZtpP6WJg/7z"
            "z1qPPhZigFSVzw/mIHRN0LLbxxjwy6fzov14OC+We/BVKxMPsraTKrEGcPsz6+yrYip/dxzw7tpn"
            "ieC+19JxBBu3pjNyBiRY+Ok1bUvvCQPotl1aoO9qisBnDhqJK6i+fD2pyZYXwi+xTrXnJR/TvSrl"
            "Sv8SWDxP/ubQ5vXYYPCi89AqA/TmKLnIrqKh7Fuwy8NuOu4MyPIeUf0x879pc7ZGCHCiyK6jv4Hy"
            "gucZvEfzhTgWunG5+yQH6T+c67SKjKDv/CMzqEofA2JXlO7/ICAX+H56LjU/Hy+1eUPU/ZgbsDHa"
            "4Z0J+j3nHnPW5sJ0g+Cc/jVT9Ii+T3YEr4GD7nkj1zt0JJd98/H/txbOoSeNPF9ROSQ7RW7pJhK2"
            "H+uZNZSPnFg82y6O4gKhSqOi30UjaP26Nbxq2ASWl7zkVRUZMHAtHHUwo8Fs9dhXY8praz/q75lN"
            "9bK6atWkNZgYmvv058LDhggzU+3XoXz05ozm2Q57aeDvpkkPpDMRq+8wVWqOAJqecW7SNnRoG1dZ"
            "qSqQ4O+9onqJywLtfcbMwxSffXgxJsb1AA64LY3edVUEQZdCOb2Zjib3S1avQgHxd9frkkdIDPh+"
            "TN7KEeJ7p2mTljR1T43Jitb5HKSFJfeto85JvKBD6ko+E5G/WKUTGymueLWmcTCWjRfdh7XKqbyL"
            "Kdrj+ILFgXxsY2FyCHU+IUmftTtYCK1/bjiyj0BG8JHZw+nGuFjA3HftBB2vpZcr9RRy8S5jXZqi"
            "PAdJDpf82wco3taxlXJLZqBl0+rtB6l7P+XurQ+qNC722hg29VF5554p4e0u5KHuvG9Y5HQu9G+t"
            "s/rHIFHwunyruSeJmfVjFTrvmRgd9V078waJIIc7hPczEiXBYS+SX1N83Lfjhp0xtZcN/VkT96hz"
            "vT9dZvYYxXcq7BTeuBCdnqGt72KEcKwdcFW5JkDVYPlM30EB6nd8UH5SrQ8ipsl86A4TB7VZJMFn"
            "4UJZtf9uyiNrVBYcmfaOjxO0aMHEERY0XswQNjnxsCVUk/74tylMRPP+eufy8f3ipxl/vOmonO5i"
            "r7qaRLra53fNpyiunAwOUPIS4p1rwsSxnUzINB79VPKQyqnznTUdBwk8UtGstChmYnBBaWfHUhqs"
            "rifW7lnAxrT5XT1xtRzEqHe9TZUm0LQr9rG3LMWJSZ1JS0tEKPJVPhO7k8Tj9q7/jCUssbVLd8HO"
            "4bWI3kEeXWFKg8rY44eFsiROjQWer6T6puJPBtlOnXO+rnQRQaOjx7j30dkAEuXjAVlaORzIvXz/"
            "cG4X9fzPF/78ZglgkyRdH7mZgbu7FWnKdhzMWae6gb+ZQKD0lopvGQSSambLsLYDz7eSNR/XCbCk"
            "eaWJzhlDzKpMe3Q7lolFRWotzpTvuf9+nlGxlQ/jymVqUdQ5lSv2l/sqGmH6/K1y5f7AklPnGUmn"
            "OLBiFm6+LceAdWekR7QEDxumfb9ofIDAwsM7RxLpPCzVeesd0kGgn9P3TRDKR7ybxNgihgC3WryG"
            "mUcEiE+7lbW8iobFbh2rePFMiF3Ouq1VwkeRVnheWo4QdYta9uT/R+JOkObHlSu5eLww5b8ru7jw"
            "3b6zZlshHcdjnz2ZqNOHZFdUeSgoL/y8wS37EcUNikd0FjSw0RUoPnAmmYVrzUsV5eVIGCskhBPj"
            "wK0z91JYP4QQS67aku9lCKO3t+TkE1i4qnv2vxADLia9DvwY1WFh1zHSc9o1FiwljAbus6medz3t"
            "oZMjQO69K64rbFlITf+p0ZrOQvi94C8K61gwd44X3OXxcC3QgZWmxsXVepVuY5ohEqrbz8ym5v/5"
            "4IIAvjqwJS6kz4/K12/hFlEbUxkoUCm3LflGcavvjGbpGAa+OaU4lVsRuJb9fXcM5asnHfILPHq4"
            "kPhVINqVaQwLjvsNPXdDiJsdlBcLZEHaWS+u1IONkO9bPMVbgR5+T8ieMC52L3FUZDTQcEX2E180"
            "l4Tf1nOnCUceFuvMpg94mCGfZFjczqHh8hpRl81FJk4/+dw0q57Aef6lBOmblCdrlbyUiyRxYcx1"
            "2nWK82aQnOLn93hocGo5tKqQhfxl519XbGVCSck6ZaUGiWLdGhc1Kqd4LyP0mZ+M8CHDrkKT8vuP"
            "c/6Uho8L8E9Pr93F1QyhPR1SmfVUPjs+NbuYb4DZqurLP07h4NzIlYahQqBT49rn91Se/qxPDfg5"
            "wYB8nrDbytYYTt2RQTXnRQip+nKROcJGXGionUwXDb27zMbk3rMQxX4+R5Xym9txabc+UjzhS8J/"
            "D/X7QivNYvnn1LwfTzH22Q+EiCSDp9wmML/KfGRLMAMDMvGN1A3Foh6fYEUzQxy94m9FzyAhZWOk"
            "snk5gddrcnVPbOUhvEfrX7KPGWJ5fXPulTHw+GyG0vB8No78OH51x10GxNvDTsU2AF9b2to+dfLw"
            "ZFBbd9iNiaN1F0dMxQnMTr28z/kz5b8cW49TVE5j27TMmRX6kJugKxRWcrDOsP+Xs7MAOWL7DS/Y"
            "kmh9GqxW4CxCa8Gp7W4PCaicnZGms58Ar+6l0tb7hsiPzrlT3MkC+/TfoYJ/PBxobvMrXU9x8WDe"
            "0AJZqk9iv86f7sOE9JlFs170M2BsdtKoY5CLb97/1WrKmiL62aVpE14MbJW5smDoPnWeQXfINks+"
            "YqpKtbKo/us/+sTuVB4HPRXV6k8JAiVPZt7zWUblaWTalTFbJnaklp9NuczHoX4n66ZNPHzgPDCY"
            "6sfC/wEO/QHy"
        ),
    },
    "lse": {
        "dtype": torch.float64, "shape": (1, 1, 66), "stride": (66, 66, 1),
        "offset": 0, "numel": 66,  # 0 of them NaN
        "data": (
            "eNoBEALv/Vn3hpQLQOM+WfeGlAtA4z4s5GpgMf3xPhsEZP/1Bu8+SlL5GZ+U7D6EFpBtZMTwPr63"
            "h8bZD/A+cZ/6LBXc7j4H8lFbSFvuPmZmsgCGRe4+5euHSv2l6j7q1rFQ3ZHvPmj+hLOlIe4+kOVy"
            "BsDN7j6MEL/ZFgfuPvwaGLH6yO4+jYZEcEBp7T6R8p8QHEjtPs/BnmuUq+8+LrgNAODg8T5IZc7Q"
            "8ynvPmRBtz56C+8+k1DwpL1a7z6RhsmzDajsPklnoK/i1O4+osuNVjk18D4oRr2wbNbtPsOI4PtM"
            "1fA+6PE6r70I7D410FYlMGXwPn/RrIYiV+4+twecAlRA8D5595Akq8zwPuawAhxta+0+4+626koJ"
            "8D48tRidAXvwPmMkVHbPCfA+mq0HWpxI7z4utIdgAPTwPs8CZXEUA/E+jb7X6TX+7z4a76Axzmzt"
            "PmAmlZtYBvE+lGfjvVCZ7j7rwF+91nvwPuAHCJX2gOw+hz6nDHPA7T7+BZbZIejvPuuS+R0jxe8+"
            "F+G4d/4l7z6ZdLiURvHxPv6n1Fd7DvE+P6onIaaZ7j6sNHIH0TDvPlSrwaNgeO8+U3a9O8997z5P"
            "uHI8dDLyPs6GGbZq++8+E8f4XYUz7z6KXB9AyXntPjGsiGB0e+0+XJRie63e7T65bZG+0njvPiU/"
            "Vj9Pwu4+02Vwq5CF7z6EglKJkr/tPiclFNg="
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
