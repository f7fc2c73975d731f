"""A small QR reader for the tests: byte mode, error level M, versions 1-4, enough
to prove what a QR code drawn by the page says, independently of the encoder that drew it."""

from __future__ import annotations

MASKS = [
    lambda x, y: (x + y) % 2 == 0,
    lambda x, y: y % 2 == 0,
    lambda x, y: x % 3 == 0,
    lambda x, y: (x + y) % 3 == 0,
    lambda x, y: (x // 3 + y // 2) % 2 == 0,
    lambda x, y: x * y % 2 + x * y % 3 == 0,
    lambda x, y: (x * y % 2 + x * y % 3) % 2 == 0,
    lambda x, y: ((x + y) % 2 + x * y % 3) % 2 == 0,
]
# version -> (blocks, data codewords per block, error-correction codewords per block) at level M
LEVEL_M = {1: (1, 16, 10), 2: (1, 28, 16), 3: (1, 44, 26), 4: (2, 32, 18)}
FORMAT_MASK = 0x5412


def _function_modules(size: int, version: int) -> set[tuple[int, int]]:
    taken = set()
    for x0, y0 in ((0, 0), (size - 8, 0), (0, size - 8)):  # finders, separators, format areas
        for y in range(y0, y0 + 8 + (y0 == 0)):
            for x in range(x0, x0 + 8 + (x0 == 0)):
                taken.add((x, y))
    taken |= {(8, y) for y in range(size - 8, size)}
    taken |= {(i, 6) for i in range(size)} | {(6, i) for i in range(size)}
    if version >= 2:
        c = size - 7
        taken |= {(x, y) for x in range(c - 2, c + 3) for y in range(c - 2, c + 3)}
    return taken


def _rs_remainder(data: list[int], n: int) -> list[int]:
    exp, log = [0] * 512, [0] * 256
    v = 1
    for i in range(255):
        exp[i], log[v] = v, i
        v = (v << 1) ^ (0x11D if v & 0x80 else 0)
    for i in range(255, 512):
        exp[i] = exp[i - 255]
    mul = lambda a, b: 0 if a == 0 or b == 0 else exp[log[a] + log[b]]  # noqa: E731
    gen = [1]
    for i in range(n):
        gen = [a ^ mul(b, exp[i]) for a, b in zip(gen + [0], [0] + gen)]
    rem = list(data) + [0] * n
    for i in range(len(data)):
        factor = rem[i]
        if factor:
            for j, g in enumerate(gen):
                rem[i + j] ^= mul(g, factor)
    return rem[len(data) :]


def read(matrix: list[list[bool]]) -> str:
    """The text of a QR code given as rows of dark (True) modules, without a quiet zone."""
    size = len(matrix)
    version = (size - 17) // 4
    bits = sum(matrix[8][x] << (14 - i) for i, x in enumerate([0, 1, 2, 3, 4, 5, 7, 8]))
    bits |= sum(matrix[y][8] << (6 - i) for i, y in enumerate([7, 5, 4, 3, 2, 1, 0]))
    fmt = bits ^ FORMAT_MASK
    assert fmt >> 13 == 0b00, "error level M"
    mask = MASKS[(fmt >> 10) & 7]
    taken = _function_modules(size, version)
    out = []
    for right in range(size - 1, 0, -2):
        if right <= 6:
            right -= 1
        for vert in range(size):
            for j in range(2):
                x = right - j
                y = size - 1 - vert if ((right + 1) & 2) == 0 else vert
                if (x, y) not in taken:
                    out.append(matrix[y][x] ^ mask(x, y))
    blocks, n_data, n_ecc = LEVEL_M[version]
    total = blocks * (n_data + n_ecc)
    words = [int("".join(str(int(b)) for b in out[i * 8 : i * 8 + 8]), 2) for i in range(total)]
    # Codewords are interleaved across blocks: every block's first data word, then every second, ...
    data_words, ecc_words = words[: blocks * n_data], words[blocks * n_data :]
    data = []
    for b in range(blocks):
        block = data_words[b::blocks]
        assert _rs_remainder(block, n_ecc) == ecc_words[b::blocks], (
            "the error-correction codewords do not match the data"
        )
        data += block
    stream = "".join(f"{w:08b}" for w in data)
    assert stream[:4] == "0100", "byte mode"
    length = int(stream[4:12], 2)
    return bytes(int(stream[12 + 8 * i : 20 + 8 * i], 2) for i in range(length)).decode()
