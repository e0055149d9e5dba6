package io.mikyu.selector;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Selectors are equal, for the engine's filtered indexes, exactly when their normalized texts are. */
class SelectorEqualityTest {

    @ParameterizedTest(name = "[{0}] == [{1}]")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "a = 1 AND b = 2              | a=1   and   b=2",
        "a = 1 AND b = 2              | ((a = 1)) AND (b = 2)",
        "a AND b AND c                | a AND (b AND c)",
        "a OR b OR c                  | (a OR b) OR c",
        "x IN ('b', 'a', 'a')         | x IN ('a','b')",
        "p = 0x1d                     | p = 29",
        "p = 035                      | p = 29",
        "p = 0b11101                  | p = 2_9",
        "p = 7E3                      | p = 7000.",
        "p = .5                       | p = 0.50",
        "p = -5                       | p = - 5",
        "p = +5                       | p = 5",
        "s LIKE 'a%' ESCAPE '!'       | s like 'a%' escape '!'",
        "s IS NOT NULL                | s is not null",
        "v NOT BETWEEN 1 AND 2        | v not between 1 and 2",
        "flag = TRUE                  | flag = true",
        "JMSType = 'car'              | JMSType\t=  'car'",
    })
    void equivalentSpellingsAreEqual(String a, String b) throws Exception {
        Selector x = Selector.compile(a);
        Selector y = Selector.compile(b);
        assertThat(x).isEqualTo(y);
        assertThat(x.hashCode()).isEqualTo(y.hashCode());
        assertThat(x.toString()).isEqualTo(y.toString());
    }

    @ParameterizedTest(name = "[{0}] != [{1}]")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "a = 1                        | A = 1",
        "a = 1                        | a = 1L",
        "a = 1                        | a = 1.0",
        "a = 1.5                      | a = 1.5F",
        "a = 'x'                      | a = 'X'",
        "a = 1 AND b = 2              | b = 2 AND a = 1",
        "a = 1 OR b = 2 AND c = 3     | (a = 1 OR b = 2) AND c = 3",
        "a LIKE 'x'                   | a NOT LIKE 'x'",
        "a IN ('x')                   | a NOT IN ('x')",
    })
    void differentSelectorsAreNotEqual(String a, String b) throws Exception {
        assertThat(Selector.compile(a)).isNotEqualTo(Selector.compile(b));
    }

    @Test
    void normalizedTextIsCanonical() throws Exception {
        assertThat(Selector.compile("a=1 and b like 'x%' or not c").toString())
                .isEqualTo("((a = 1) AND (b LIKE 'x%')) OR (NOT c)");
        assertThat(Selector.compile("x in ('it''s','a') and y is null").toString())
                .isEqualTo("(x IN ('a', 'it''s')) AND (y IS NULL)");
        assertThat(Selector.compile("p=0x1d and q=7E3 and r=5L and s=1.5f and t=-9223372036854775808").toString())
                .isEqualTo("(p = 29) AND (q = 7000.0) AND (r = 5L) AND (s = 1.5F) AND (t = -9223372036854775808L)");
        assertThat(Selector.compile("- -a + -(b*2) between 1 and 2").toString())
                .isEqualTo("((-(-a)) + (-(b * 2))) BETWEEN 1 AND 2");
        assertThat(Selector.compile("v LIKE '\\_%' ESCAPE '\\'").toString()).isEqualTo("v LIKE '\\_%' ESCAPE '\\'");
    }

    @Test
    void sourceKeepsTheOriginalText() throws Exception {
        assertThat(Selector.compile("a=1").source()).isEqualTo("a=1");
        assertThat(Selector.MATCH_ALL.source()).isEmpty();
        assertThat(Selector.MATCH_ALL.toString()).isEmpty();
    }

    @Test
    void matchAllIsEqualOnlyToItself() throws Exception {
        assertThat(Selector.compile(null)).isEqualTo(Selector.compile("")).isEqualTo(Selector.compile("true"));
        assertThat(Selector.compile("FALSE")).isNotEqualTo(Selector.MATCH_ALL);
        assertThat(Selector.compile("a")).isNotEqualTo(Selector.MATCH_ALL);
        assertThat(Selector.MATCH_ALL).isNotEqualTo("");
    }
}
