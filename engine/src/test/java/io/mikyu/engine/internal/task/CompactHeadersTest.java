package io.mikyu.engine.internal.task;

import io.mikyu.engine.Headers;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** A held task's headers survive their compact form exactly: order, duplicates, UTF-8, empty and long values. */
class CompactHeadersTest {

    @Test
    void headersComeBackAsTheyWent() {
        byte[] big = new byte[70_000]; // a length past two varint bytes
        big[69_999] = 7;
        Headers h = Headers.builder()
                .add("JMSMessageID", "ID:1")
                .add("nämé-ü", "välue ✓")
                .add("empty", new byte[0])
                .add("JMSMessageID", "ID:again")
                .add("big", big)
                .build();
        Headers back = CompactHeaders.decode(CompactHeaders.encode(h));
        assertThat(back).isEqualTo(h);
        assertThat(back.asList()).extracting(Headers.Header::name)
                .containsExactly("JMSMessageID", "nämé-ü", "empty", "JMSMessageID", "big");
        assertThat(new String(back.get("nämé-ü"), StandardCharsets.UTF_8)).isEqualTo("välue ✓");
    }

    @Test
    void aNullValueStaysNullAndDiffersFromAnEmptyOne() {
        Headers h = Headers.builder().add("gone", (byte[]) null).add("empty", new byte[0]).add("g", "x").build();
        byte[] encoded = CompactHeaders.encode(h);
        assertThat(CompactHeaders.decode(encoded)).isEqualTo(h);
        assertThat(CompactHeaders.decode(encoded).get("gone")).isNull();
        assertThat(CompactHeaders.decode(encoded).get("empty")).isEmpty();
        assertThat(CompactHeaders.getString(encoded, "gone")).isNull();
        assertThat(CompactHeaders.getString(encoded, "empty")).isEmpty();
        assertThat(CompactHeaders.getString(encoded, "g")).isEqualTo("x");
        assertThat(CompactHeaders.getString(encoded, "absent")).isNull();
    }

    @Test
    void theLastValueOfANameIsTheOneReadInPlace() {
        byte[] encoded = CompactHeaders.encode(Headers.of("mikyu.group", "a", "x", "1", "mikyu.group", "b"));
        assertThat(CompactHeaders.getString(encoded, "mikyu.group")).isEqualTo("b");
    }

    @Test
    void noHeadersCostNoArrayAndComeBackEmpty() {
        assertThat(CompactHeaders.encode(Headers.EMPTY)).isEmpty();
        assertThat(CompactHeaders.encode(null)).isEmpty();
        assertThat(CompactHeaders.decode(CompactHeaders.encode(Headers.EMPTY))).isEqualTo(Headers.EMPTY);
    }

    @Test
    void aTaskEntryHoldsItsHeadersInOneArray() {
        Headers h = Headers.of("a", "1", "b", "2");
        TaskEntry e = new TaskEntry(1, 4, 0, 0, 0, h, 0);
        assertThat(e.headers()).isEqualTo(h);
        assertThat(e.headers()).as("decoded afresh each time").isNotSameAs(e.headers());
    }
}
