package io.mikyu.cli.bench;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class JsonObjectTest {

    @Test
    void writesMembersInOrderWithTheirJsonTypes() {
        String json = new JsonObject().put("s", "text").put("n", 42L).put("d", 12.5).put("b", true).put("none", (String) null)
                .toString();

        assertThat(json).isEqualTo("{\"s\":\"text\",\"n\":42,\"d\":12.5,\"b\":true,\"none\":null}");
    }

    @Test
    void escapesQuotesBackslashesAndControlCharacters() {
        assertThat(new JsonObject().put("path", "C:\\a \"b\"\n\u0001").toString())
                .isEqualTo("{\"path\":\"C:\\\\a \\\"b\\\"\\n\\u0001\"}");
    }

    @Test
    void writesNumbersThatJsonCannotHoldAsNull() {
        assertThat(new JsonObject().put("x", Double.NaN).put("y", Double.POSITIVE_INFINITY).toString())
                .isEqualTo("{\"x\":null,\"y\":null}");
    }

    @Test
    void writesWholeDoublesWithoutAFraction() {
        assertThat(new JsonObject().put("x", 3.0).put("y", 0.0).toString()).isEqualTo("{\"x\":3,\"y\":0}");
    }
}
