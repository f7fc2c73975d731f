"""The field's conventions beside the book's: each refuses what it does not cover, in words that say why.

The cases of each convention live in its entry (origin derived or published) and run with every other
case; these are the inputs a convention cannot price, and the exact message a reader gets for each."""

from __future__ import annotations

import pytest

from site_builder.runtime.domain import DomainError
from tests.support import load_bank

_, CALCULATORS = load_bank()

REFUSED = [
    (
        "42",
        {"grid": "absmax", "b": "1"},
        "b",
        "the symmetric absmax grid needs at least 2 bits; 1 bit leaves only the level 0",
    ),
    (
        "46",
        {"over": "unbiased", "k": "300", "n_gen": "200"},
        "k",
        "the unbiased estimator draws k of the n = 200 samples; k may not exceed n",
    ),
    (
        "46",
        {"over": "unbiased", "k": "10", "n_gen": "50", "correct": "40, 60"},
        "correct",
        "problem 2 has 60 correct samples, more than the n = 50 drawn",
    ),
    (
        "5",
        {"H": "56", "W": "56", "C": "64", "k": "3, 3", "s": "1", "p": "1", "C_out": "64, 32", "kind": "0, 1"},
        "C_out",
        "layer 2 is a pooling layer, which keeps its 64 channels; give 64, not 32",
    ),
    ("5", {"shortcut": "4"}, "shortcut", "the shortcut ending at layer 1 spans 4 layers; it can span at most 1"),
    (
        "5",
        {"H": "56", "W": "56", "C": "64", "k": "3, 3", "s": "1, 2", "p": "0, 1", "C_out": "64", "shortcut": "0, 2"},
        "shortcut",
        "at the block's stride 2 the shortcut maps its 56x56 input to 28x28, not the 27x27 output of layer 2",
    ),
    (
        "5",
        {
            "H": "56",
            "W": "56",
            "C": "64",
            "k": "3, 3",
            "s": "1",
            "p": "1",
            "C_out": "64, 32",
            "shortcut": "0, 2",
            "option": "A",
        },
        "option",
        "the identity shortcut ending at layer 2 cannot drop channels (64 to 32); choose a projection (B or C)",
    ),
]


@pytest.mark.parametrize("key,raw,name,message", REFUSED, ids=[f"e{k}-{n}" for k, _, n, _ in REFUSED])
def test_a_convention_refuses_what_it_cannot_price(key, raw, name, message):
    with pytest.raises(DomainError) as caught:
        CALCULATORS[key].run(raw)
    assert caught.value.name == name
    assert str(caught.value) == f"{name}: {message}"


@pytest.mark.parametrize(
    "key,raw,output",
    [
        ("4", {"gain": "linear"}, "var_L"),
        ("14", {"against": "ffn"}, "cost_ratio"),
        ("49", {"convention": "book"}, "eps_guided"),
        ("1", {"attention": "none", "n_layer": "96", "n_ctx": "2048", "d_attn": "12288"}, "C_train"),
        ("5", {"option": "C"}, "macs_total"),
        ("46", {"rates": "0.5", "correct": "1"}, "coverage"),
    ],
)
def test_the_book_choice_ignores_the_conventions_inputs(key, raw, output):
    # The default choice is the book's statement: the conventions' own inputs change nothing under it.
    assert CALCULATORS[key].run(raw)["outputs"][output] == CALCULATORS[key].run({})["outputs"][output]


def test_ho_and_salimans_w_is_the_books_w_minus_one():
    calc = CALCULATORS["49"]
    for w in ("0", "0.5", "2", "6.5"):
        theirs = calc.run({"w": w, "convention": "ho_salimans"})["outputs"]
        ours = calc.run({"w": str(float(w) + 1)})["outputs"]
        assert theirs["eps_guided"] == ours["eps_guided"] and theirs["scale_s"] == ours["scale_s"]


def test_a_constant_schedule_is_a_power_and_a_linear_one_with_equal_ends():
    calc = CALCULATORS["48"]
    const = calc.run({"schedule": "constant", "beta_T": "0.01", "t": "300"})["outputs"]["alpha_bar"]["value"]
    flat = calc.run({"schedule": "linear", "beta_1": "0.01", "beta_T": "0.01", "t": "300"})["outputs"]["alpha_bar"][
        "value"
    ]
    assert const == pytest.approx(0.99**300, rel=1e-12) and const == pytest.approx(flat, rel=1e-12)


def test_the_unbiased_estimator_is_the_ratio_of_binomials():
    from math import comb

    calc = CALCULATORS["46"]
    out = calc.run({"over": "unbiased", "k": "7", "n_gen": "40", "correct": "0, 3, 17, 34, 40"})["outputs"]
    want = [1 - comb(40 - c, 7) / comb(40, 7) for c in (0, 3, 17, 34, 40)]
    assert out["pass_each"]["value"] == pytest.approx(want, rel=1e-12, abs=1e-15)
