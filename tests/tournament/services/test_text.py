"""The one text rule every name, code and reason passes through."""

import pytest

from tournament.services.text import clean_text, parse_whole_number


def clean(value, label="team name"):
    return clean_text(value, label=label, max_length=100, required=True)


@pytest.mark.parametrize("name", ["张伟", "李娜", "João Silva", "Øyvind Ødegård", "Ἀλέξανδρος",
                                  "Виктор Цой", "محمد", "דוד", "김민준", "Đặng Thị Hồng",
                                  "O'Brien-Smith"])
def test_real_names_in_any_script_pass_but_not_with_a_hidden_character(name):
    assert clean(f"  {name} ") == name
    with pytest.raises(ValueError, match=r"invisible character \(U\+200B\)"):
        clean(name[:1] + "\u200b" + name[1:])


def test_names_are_normalised_to_nfc_before_the_check():
    assert clean("Joa\u0303o") == "João"
    with pytest.raises(ValueError, match=r"invisible character \(U\+2060\)"):
        clean("Joa\u0303\u2060o")


@pytest.mark.parametrize(("char", "kind"), [
    ("\u200b", "an invisible character"),          # zero width space
    ("\u200c", "an invisible character"),          # zero width non-joiner
    ("\u200d", "an invisible character"),          # zero width joiner
    ("\u2060", "an invisible character"),          # word joiner
    ("\ufeff", "an invisible character"),          # byte order mark / zero width no-break
    ("\u00ad", "an invisible character"),          # soft hyphen (category Cf)
    ("\u3164", "an invisible character"),          # Hangul filler, blank but a letter
    ("\u202a", "an invisible text-direction character"),
    ("\u202e", "an invisible text-direction character"),
    ("\u2066", "an invisible text-direction character"),
    ("\u2069", "an invisible text-direction character"),
    ("\u200e", "an invisible text-direction character"),
    ("\u200f", "an invisible text-direction character"),
    ("\u061c", "an invisible text-direction character"),
    ("\u2028", "a line break"),
    ("\u2029", "a line break"),
    ("\r", "a line break"),
])
def test_invisible_and_direction_characters_are_named_by_code_point(char, kind):
    with pytest.raises(ValueError) as caught:
        clean(f"Chi{char}na")
    assert str(caught.value) == f"team name contains {kind} (U+{ord(char):04X})"


def test_a_control_character_is_named_by_code_point():
    with pytest.raises(ValueError, match=r"^player 1 contains a control character \(U\+0009\)$"):
        clean("Li\tWei", label="player 1")


_FULL_WIDTH = {digit: digit - ord("0") + 0xFF10 for digit in range(ord("0"), ord("9") + 1)}


@pytest.mark.parametrize(("text", "number"), [("1", 1), (" 12 ", 12), ("007", 7),
                                              ("999999", 999999)])
def test_whole_numbers_are_read_from_ascii_digits_only(text, number):
    assert parse_whole_number(text) == number
    # The same number in full-width digits, as a Chinese input method may type it.
    assert parse_whole_number(text.translate(_FULL_WIDTH)) is None


@pytest.mark.parametrize("text", ["²", "①", "٣", "\uff11", "४", "1²", "-1", "+1", "1.0", "1e3",
                                  "1_000", "", " ", "one", "9" * 5000])
def test_anything_but_ascii_digits_is_not_a_whole_number(text):
    assert parse_whole_number(text) is None
