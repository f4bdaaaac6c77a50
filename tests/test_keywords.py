"""Keyword tokens: Chinese is segmented, English is stemmed, stopwords go, and queries match the index."""

from __future__ import annotations

import sqlite3
from contextlib import closing

import pytest

from memlane.text.keywords import index_text, index_tokens, query_tokens


def test_chinese_is_segmented_into_words() -> None:
    assert index_tokens("我喜欢喝茶") == ["喜欢", "喝茶"]


def test_search_mode_also_emits_the_words_inside_a_long_word() -> None:
    tokens = index_tokens("中华人民共和国")
    assert {"中华", "人民", "共和国", "中华人民共和国"} <= set(tokens)


def test_word_missing_from_the_dictionary_still_yields_its_parts() -> None:
    tokens = index_tokens("我最近开始喝冷萃了")
    assert {"喝", "冷萃"} <= set(tokens)
    assert set(query_tokens("冷萃")) & set(tokens) == {"冷萃", "冷", "萃"}


def test_dictionary_words_are_not_split_into_characters() -> None:
    assert index_tokens("喝茶") == ["喝茶"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("我的猫和狗", ["猫", "狗"], id="pets"),
        pytest.param("他也在吃辣", ["吃", "辣"], id="spicy"),
        pytest.param("你是什么茶呢", ["茶"], id="tea-question"),
        # asking the assistant is no topic, as "please" is none in English: "帮我推荐明天早上的饮料"
        # had found "我的身份证号是…，帮我查一下订单" by its 帮
        pytest.param("请帮我推荐饮料", ["推荐", "饮料"], id="asking-words"),
        pytest.param("麻烦查一下快递", ["查", "快递"], id="asking-politely"),
    ],
)
def test_chinese_function_words_go_and_content_characters_stay(text: str, expected: list[str]) -> None:
    assert index_tokens(text) == expected


@pytest.mark.parametrize("word", ["likes", "liked", "liking", "Like", "LIKES"])
def test_english_inflections_share_one_stem(word: str) -> None:
    assert index_tokens(word) == ["like"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("What did you do when I was there?", [], id="only-stopwords"),
        pytest.param("The cat is on my mat", ["cat", "mat"], id="articles-and-pronouns"),
        pytest.param("I don't like running", ["like", "run"], id="contraction-pieces"),
    ],
)
def test_english_stopwords_are_dropped(text: str, expected: list[str]) -> None:
    assert index_tokens(text) == expected


def test_model_names_and_numbers_are_kept_whole() -> None:
    assert index_tokens("Samsung S24 vs iPhone 15") == ["samsung", "s24", "vs", "iphon", "15"]


def test_full_width_and_upper_case_are_normalised() -> None:
    assert index_tokens("ＩＰＨＯＮＥ　Ｓ２４") == index_tokens("iphone s24")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("我prefer email", ["prefer", "email"], id="zh-pronoun-en-words"),
        pytest.param("周末去Costco买咖啡", ["周末", "去", "costco", "买", "咖啡"], id="brand-inside-zh"),
        pytest.param("I love 火锅", ["love", "火锅"], id="en-then-zh"),
    ],
)
def test_mixed_text_is_tokenised_per_script(text: str, expected: list[str]) -> None:
    assert index_tokens(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("", id="empty"),
        pytest.param("   \n\t", id="blank"),
        pytest.param("！？。，、……", id="zh-punctuation"),
        pytest.param('...!!! "" -- ()', id="en-punctuation"),
        pytest.param("的了吗", id="zh-stopwords"),
    ],
)
def test_input_without_content_gives_no_tokens(text: str) -> None:
    assert index_tokens(text) == []
    assert query_tokens(text) == []
    assert index_text(text) == ""


def test_query_tokens_are_deduplicated_in_order() -> None:
    assert query_tokens("猫喜欢鱼，鱼也喜欢猫") == ["猫", "喜欢", "鱼"]
    assert query_tokens("Likes, liked and liking tea") == ["like", "tea"]


def test_index_keeps_repeats_for_ranking() -> None:
    assert index_tokens("tea tea") == ["tea", "tea"]


def test_index_text_is_the_tokens_joined_by_spaces() -> None:
    text = "I liked green tea, 我喜欢绿茶"
    assert index_text(text) == " ".join(index_tokens(text))


def test_tokens_hold_no_quotes_or_spaces() -> None:
    text = "He said \"hi\" and 她说“你好”, then 'bye'"
    for token in index_tokens(text):
        assert token
        assert '"' not in token
        assert not any(ch.isspace() for ch in token)


@pytest.mark.parametrize(
    ("document", "query"),
    [
        pytest.param("She likes green tea", "What does she like?", id="en-stem"),
        pytest.param("我平时喜欢喝美式咖啡", "喜欢什么咖啡", id="zh"),
        pytest.param("周末常去Costco", "costco", id="mixed"),
    ],
)
def test_query_finds_document_in_sqlite_fts5(document: str, query: str) -> None:
    match = " OR ".join(f'"{token}"' for token in query_tokens(query))
    with closing(sqlite3.connect(":memory:")) as db:
        db.execute("CREATE VIRTUAL TABLE docs USING fts5(body, tokenize='unicode61')")
        db.execute("INSERT INTO docs (body) VALUES (?)", (index_text(document),))
        assert db.execute("SELECT count(*) FROM docs WHERE docs MATCH ?", (match,)).fetchone() == (1,)
