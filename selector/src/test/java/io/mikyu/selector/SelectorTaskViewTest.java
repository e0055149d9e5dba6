package io.mikyu.selector;

import static org.assertj.core.api.Assertions.assertThat;

import io.mikyu.engine.Headers;
import io.mikyu.engine.TaskFilter;
import io.mikyu.engine.TaskView;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Evaluation against engine tasks whose headers are encoded as described in WIRE-FORMAT.md. */
class SelectorTaskViewTest {

    record Task(Headers headers, int attempts) implements TaskView {
        @Override
        public long id() {
            return 1;
        }

        @Override
        public int priority() {
            return 4;
        }

        @Override
        public long enqueuedAt() {
            return 0;
        }

        @Override
        public long expiresAt() {
            return 0;
        }
    }

    // ---- encoding per WIRE-FORMAT.md: a type tag, then the big-endian value

    static byte[] z(boolean v) {
        return new byte[] {'Z', (byte) (v ? 1 : 0)};
    }

    static byte[] b(byte v) {
        return new byte[] {'B', v};
    }

    static byte[] s(short v) {
        return ByteBuffer.allocate(3).put((byte) 'S').putShort(v).array();
    }

    static byte[] i(int v) {
        return ByteBuffer.allocate(5).put((byte) 'I').putInt(v).array();
    }

    static byte[] j(long v) {
        return ByteBuffer.allocate(9).put((byte) 'J').putLong(v).array();
    }

    static byte[] f(float v) {
        return ByteBuffer.allocate(5).put((byte) 'F').putFloat(v).array();
    }

    static byte[] d(double v) {
        return ByteBuffer.allocate(9).put((byte) 'D').putDouble(v).array();
    }

    static byte[] t(String v) {
        byte[] utf8 = v.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(1 + utf8.length).put((byte) 'T').put(utf8).array();
    }

    static byte[] x(byte[] v) {
        return ByteBuffer.allocate(1 + v.length).put((byte) 'X').put(v).array();
    }

    static Task task(Object... namesAndValues) {
        return taskWithAttempts(0, namesAndValues);
    }

    static Task taskWithAttempts(int attempts, Object... namesAndValues) {
        Headers.Builder builder = Headers.builder();
        for (int k = 0; k < namesAndValues.length; k += 2) {
            builder.add((String) namesAndValues[k], (byte[]) namesAndValues[k + 1]);
        }
        return new Task(builder.build(), attempts);
    }

    static boolean matches(String selector, TaskView task) throws Exception {
        TaskFilter filter = Selector.compile(selector);
        return filter.matches(task);
    }

    @Test
    void decodesEveryTypedHeaderTag() throws Exception {
        Task task = task("z", z(true), "b", b((byte) -7), "s", s((short) 300), "i", i(-70000), "j", j(1L << 40),
                "f", f(1.5f), "d", d(-2.25), "t", t("text"));
        assertThat(matches("z = TRUE AND z", task)).isTrue();
        assertThat(matches("b = -7", task)).isTrue();
        assertThat(matches("s = 300", task)).isTrue();
        assertThat(matches("i = -70000", task)).isTrue();
        assertThat(matches("j = 1099511627776", task)).isTrue();
        assertThat(matches("f = 1.5", task)).isTrue();
        assertThat(matches("d = -2.25", task)).isTrue();
        assertThat(matches("t = 'text'", task)).isTrue();
        assertThat(matches("b + s + i < 0 AND j / 2 > i AND f * d = -3.375", task)).isTrue();
        assertThat(matches("NOT z", task(("z"), z(false)))).isTrue();
    }

    @Test
    void jmsHeaderFieldsAreReadFromTheirHeaders() throws Exception {
        Task task = task("JMSMessageID", t("ID:mikyu-1"), "JMSTimestamp", j(1_700_000_000_000L),
                "JMSCorrelationID", t("req-9"), "JMSType", t("car"), "JMSDeliveryMode", i(2), "JMSPriority", i(7),
                "JMSExpiration", j(0), "JMSReplyTo", t("queue://replies"));
        assertThat(matches("JMSMessageID = 'ID:mikyu-1'", task)).isTrue();
        assertThat(matches("JMSTimestamp BETWEEN 1700000000000 AND 1700000000001", task)).isTrue();
        assertThat(matches("JMSCorrelationID LIKE 'req-%'", task)).isTrue();
        assertThat(matches("JMSType IN ('car', 'truck')", task)).isTrue();
        assertThat(matches("JMSDeliveryMode = 'PERSISTENT'", task)).isTrue();
        assertThat(matches("JMSDeliveryMode = 'NON_PERSISTENT'", task)).isFalse();
        assertThat(matches("JMSDeliveryMode = 2", task)).isFalse();
        assertThat(matches("JMSPriority > 4", task)).isTrue();
        assertThat(matches("JMSExpiration = 0 AND JMSReplyTo = 'queue://replies'", task)).isTrue();
        assertThat(matches("JMSDeliveryMode = 'NON_PERSISTENT'", task("JMSDeliveryMode", i(1)))).isTrue();
    }

    @Test
    void absentOrNullHeadersAreNull() throws Exception {
        Task task = task("present", t("x"), "nullValued", null, "nullTagged", new byte[] {'N'});
        assertThat(matches("missing IS NULL", task)).isTrue();
        assertThat(matches("nullValued IS NULL AND nullTagged IS NULL", task)).isTrue();
        assertThat(matches("present IS NOT NULL", task)).isTrue();
        assertThat(matches("JMSType IS NULL AND JMSMessageID IS NULL AND JMSCorrelationID IS NULL", task)).isTrue();
        assertThat(matches("NOT (missing = 'x')", task)).isFalse();
        assertThat(matches("missing = 'x' OR present = 'x'", task)).isTrue();
    }

    @Test
    void correlationIdSetAsBytesIsNotNullButEqualsNoString() throws Exception {
        Task task = task("JMSCorrelationID", x("abc".getBytes(StandardCharsets.UTF_8)));
        assertThat(matches("JMSCorrelationID IS NOT NULL", task)).isTrue();
        assertThat(matches("JMSCorrelationID = 'abc'", task)).isFalse();
        assertThat(matches("JMSCorrelationID <> 'abc'", task)).isFalse();
        assertThat(matches("JMSCorrelationID LIKE '%'", task)).isFalse();
    }

    @Test
    void malformedOrUnknownTypedValuesAreOpaqueNotNull() throws Exception {
        Task task = task("short", new byte[] {'I', 0, 1}, "empty", new byte[0], "unknown", new byte[] {'Q', 1});
        for (String name : new String[] {"short", "empty", "unknown"}) {
            assertThat(matches(name + " IS NOT NULL", task)).isTrue();
            assertThat(matches(name + " = 1 OR " + name + " = '1' OR " + name + " > 0", task)).isFalse();
        }
    }

    @Test
    void stringsCompareCorrectlyWithoutDecodingIncludingNonAscii() throws Exception {
        Task task = task("city", t("Zürich"), "emoji", t("😀"), "empty", t(""));
        assertThat(matches("city = 'Zürich'", task)).isTrue();
        assertThat(matches("city = 'Zurich'", task)).isFalse();
        assertThat(matches("city <> 'Zürich'", task)).isFalse();
        assertThat(matches("city = 'Zürich ' OR city = 'Zürić'", task)).isFalse();
        assertThat(matches("emoji = '😀' AND emoji LIKE '_'", task)).isTrue();
        assertThat(matches("empty = '' AND empty LIKE '%'", task)).isTrue();
        assertThat(matches("city IN ('Basel', 'Zürich')", task)).isTrue();
        assertThat(matches("city IN ('a','b','c','d','e','f','g','h','i','Zürich')", task)).isTrue();
        assertThat(matches("city = emoji", task)).isFalse();
        assertThat(matches("city = city", task)).isTrue();
        assertThat(matches("city = 'Zürich\uD800'", task)).isFalse(); // lone surrogate literal: no false byte match
    }

    @Test
    void lastValueOfARepeatedHeaderWins() throws Exception {
        Task task = task("region", t("us"), "region", t("eu"));
        assertThat(matches("region = 'eu'", task)).isTrue();
        assertThat(matches("region = 'us'", task)).isFalse();
    }

    @Test
    void deliveryCountAndRedeliveredAreDerivedFromAttempts() throws Exception {
        assertThat(matches("JMSXDeliveryCount = 1 AND NOT JMSRedelivered", taskWithAttempts(0))).isTrue();
        assertThat(matches("JMSXDeliveryCount = 3 AND JMSRedelivered", taskWithAttempts(2))).isTrue();
        assertThat(matches("JMSXDeliveryCount < 3", taskWithAttempts(5))).isFalse();
        // a stored header takes precedence
        assertThat(matches("JMSXDeliveryCount = 9", taskWithAttempts(0, "JMSXDeliveryCount", i(9)))).isTrue();
    }

    @Test
    void identifiersAreCaseSensitiveHeaderNames() throws Exception {
        Task task = task("Color", t("red"));
        assertThat(matches("Color = 'red'", task)).isTrue();
        assertThat(matches("color IS NULL", task)).isTrue();
    }

    @Test
    void brokenTaskViewDoesNotThrowAndDoesNotMatch() throws Exception {
        TaskView broken = new TaskView() {
            @Override
            public long id() {
                return 0;
            }

            @Override
            public int priority() {
                return 0;
            }

            @Override
            public Headers headers() {
                throw new IllegalStateException("boom");
            }

            @Override
            public int attempts() {
                return 0;
            }

            @Override
            public long enqueuedAt() {
                return 0;
            }

            @Override
            public long expiresAt() {
                return 0;
            }
        };
        assertThat(Selector.compile("a IS NULL").matches(broken)).isFalse();
        assertThat(Selector.compile("a IS NULL").matches(task())).isTrue();
    }

    @Test
    void matchAllMatchesAnyTask() {
        assertThat(Selector.MATCH_ALL.matches(task())).isTrue();
    }
}
