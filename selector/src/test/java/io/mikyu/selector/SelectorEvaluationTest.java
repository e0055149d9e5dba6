package io.mikyu.selector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Evaluation against in-memory values. Each row gives the selector's three-valued result: T (true), F (false) or
 * U (unknown). F and U both fail to match; they are told apart by also evaluating {@code NOT (selector)}, which is
 * true for F and still unknown for U.
 */
class SelectorEvaluationTest {

    /** Evaluates {@code selector} in three-valued logic: "T", "F" or "U". */
    static String truth(String selector, Map<String, Object> props) throws Exception {
        Function<String, Object> lookup = props::get;
        if (Selector.compile(selector).matches(lookup)) {
            return "T";
        }
        return Selector.compile("NOT (" + selector + ")").matches(lookup) ? "F" : "U";
    }

    static Arguments row(String selector, String expected, Object... namesAndValues) {
        Map<String, Object> props = new HashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            props.put((String) namesAndValues[i], namesAndValues[i + 1]);
        }
        return arguments(selector, props, expected);
    }

    @ParameterizedTest(name = "{0} with {1} is {2}")
    @MethodSource({"logic", "comparisons", "arithmetic", "between", "in", "like", "isNull", "literals",
        "headerFields", "tckScenarios"})
    void evaluatesInThreeValuedLogic(String selector, Map<String, Object> props, String expected) throws Exception {
        assertThat(truth(selector, props)).isEqualTo(expected);
    }

    static Stream<Arguments> logic() {
        List<Arguments> rows = new ArrayList<>();
        Object[][] values = {{"T", true}, {"F", false}, {"U", null}};
        // The specification's tables, row by column.
        String[][] and = {{"T", "F", "U"}, {"F", "F", "F"}, {"U", "F", "U"}};
        String[][] or = {{"T", "T", "T"}, {"T", "F", "U"}, {"T", "U", "U"}};
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                rows.add(row("x AND y", and[i][j], "x", values[i][1], "y", values[j][1]));
                rows.add(row("x OR y", or[i][j], "x", values[i][1], "y", values[j][1]));
            }
        }
        rows.add(row("NOT x", "F", "x", true));
        rows.add(row("NOT x", "T", "x", false));
        rows.add(row("NOT x", "U"));
        // a non-boolean identifier used as a condition is unknown
        rows.add(row("x", "U", "x", "true"));
        rows.add(row("x", "U", "x", 1));
        rows.add(row("x OR TRUE", "T", "x", 1));
        // precedence: NOT > AND > OR, left to right
        rows.add(row("t OR t AND f", "T", "t", true, "f", false));
        rows.add(row("(t OR t) AND f", "F", "t", true, "f", false));
        rows.add(row("NOT t AND f", "F", "t", true, "f", false));
        rows.add(row("NOT f AND t", "T", "t", true, "f", false));
        rows.add(row("NOT a = 1", "F", "a", 1));
        rows.add(row("TRUE", "T"));
        rows.add(row("FALSE", "F"));
        rows.add(row("true AND NOT fAlSe", "T"));
        // identifiers are case-sensitive
        rows.add(row("myProp = TRUE AND MYpROP = FALSE", "T", "myProp", true, "MYpROP", false));
        rows.add(row("myprop", "U", "myProp", true));
        rows.add(row("$myProp = TRUE AND _myProp = FALSE", "T", "$myProp", true, "_myProp", false));
        // comparing boolean expressions
        rows.add(row("(a = 1) = TRUE", "T", "a", 1));
        rows.add(row("(a = 1) <> (b = 1)", "T", "a", 1, "b", 2));
        rows.add(row("(a = 1) = TRUE", "U"));
        return rows.stream();
    }

    static Stream<Arguments> comparisons() {
        return Stream.of(
                row("i = 5", "T", "i", 5),
                row("i = 5", "F", "i", 6),
                row("i = 5", "U"),
                row("i <> 5", "T", "i", 6),
                row("i <> 5", "U"),
                row("i < 5", "T", "i", 4),
                row("i <= 5", "T", "i", 5),
                row("i > 5", "F", "i", 5),
                row("i >= 5", "T", "i", 5),
                row("5 > i", "T", "i", 4),
                row("a = b", "U", "a", 1),
                row("a = b", "T", "a", 1, "b", 1L),
                // numeric promotion across int, long, float, double, byte and short
                row("i < d", "T", "i", 0, "d", 1.5),
                row("l = 3", "T", "l", 3L),
                row("l = 3.0", "T", "l", 3L),
                row("f >= 2", "T", "f", 2.0f),
                row("d < 5", "T", "d", 4.0),
                row("f <> 7", "T", "f", 0f),
                row("b = 5", "T", "b", (byte) 5),
                row("s < 0", "T", "s", (short) -3),
                row("b = s", "T", "b", (byte) 7, "s", (short) 7),
                row("f = 1.1", "F", "f", 1.1f), // (double) 1.1f != 1.1, as in Java
                row("f = 1.1F", "T", "f", 1.1f),
                row("d = 1.1", "T", "d", 1.1),
                row("l = 9223372036854775807", "T", "l", Long.MAX_VALUE),
                row("l = -9223372036854775808", "T", "l", Long.MIN_VALUE),
                row("l > 2147483647", "T", "l", 2147483648L),
                row("l = f", "T", "l", 16777217L, "f", 16777216f), // long -> float promotion loses precision
                row("l = d", "T", "l", 9007199254740993L, "d", 9007199254740992.0), // long -> double rounds too
                row("d = d", "F", "d", Double.NaN),
                row("d <> 0", "T", "d", Double.NaN),
                row("d < 0", "F", "d", Double.NaN),
                row("d > 1000000", "T", "d", Double.POSITIVE_INFINITY),
                // strings: = and <> only, exact character sequences
                row("s = 'foo'", "T", "s", "foo"),
                row("s = 'foo'", "F", "s", "Foo"),
                row("s = 'foo'", "F", "s", "foo "),
                row("s <> 'foo'", "T", "s", "bar"),
                row("s = 'it''s'", "T", "s", "it's"),
                row("s = ''", "T", "s", ""),
                row("s = 'Zürich ☃ 😀'", "T", "s", "Zürich ☃ 😀"),
                row("a = b", "T", "a", "x", "b", "x"),
                row("a < b", "F", "a", "a", "b", "b"),
                // booleans: = and <> only
                row("b = TRUE", "T", "b", true),
                row("b = TRUE", "F", "b", false),
                row("b <> FALSE", "T", "b", true),
                row("a < b", "F", "a", false, "b", true),
                // unlike types compare false (not unknown), so NOT of them is true
                row("i = 5", "F", "i", "5"),
                row("s > 1", "F", "s", "2"),
                row("b = TRUE", "F", "b", "true"),
                row("b = 1", "F", "b", true),
                row("s = 'x'", "F", "s", 'x'),
                row("a = b", "F", "a", "1", "b", 1),
                row("a <> b", "F", "a", "1", "b", 1));
    }

    static Stream<Arguments> arithmetic() {
        return Stream.of(
                row("i * 2 = 10", "T", "i", 5),
                row("i / 2 = -5", "T", "i", -10),
                row("i + 5 = 0 AND j - 5 = 5", "T", "i", -5, "j", 10),
                row("-i < 0 AND +j < 0", "T", "i", 5, "j", -5),
                row("- i + j = 0", "T", "i", 5, "j", 5),
                row("-(-i) = 5", "T", "i", 5),
                row("- -5 = i", "T", "i", 5),
                row("a + b * c - d / e = 6", "T", "a", 1f, "b", 2f, "c", 3f, "d", 4f, "e", 4f),
                row("(a + b) * c = 9", "T", "a", 1, "b", 2, "c", 3),
                row("a - b - c = -4", "T", "a", 1, "b", 2, "c", 3), // left to right
                row("a / b / c = 1", "T", "a", 12, "b", 3, "c", 4),
                // integer division truncates; promotion makes it floating point
                row("i / 2 = 2", "T", "i", 5),
                row("i / 2.0 = 2.5", "T", "i", 5),
                row("d / 2 = 2.5", "T", "d", 5.0),
                row("l / 2 = 2", "T", "l", 5L),
                row("f / 2 = 2.5", "T", "f", 5f),
                row("b * s = 6", "T", "b", (byte) 2, "s", (short) 3),
                // Java overflow: int + int wraps, int + long does not
                row("i + 1 < 0", "T", "i", Integer.MAX_VALUE),
                row("i + 1L > 0", "T", "i", Integer.MAX_VALUE),
                row("i + 2147483648 > 0", "T", "i", Integer.MAX_VALUE),
                row("l + 1 < 0", "T", "l", Long.MAX_VALUE),
                row("i * 1000000 < 0", "T", "i", 1000000),
                row("l * 1000000 > 0", "T", "l", 1000000L),
                // division by zero: integer gives NULL (unknown); floating point gives infinity/NaN as in Java
                row("i / 0 = 0", "U", "i", 1),
                row("i / z > 0", "U", "i", 1, "z", 0L),
                row("i / 0.0 > 1000000", "T", "i", 1),
                row("d / 0 < -1000000", "T", "d", -1.0),
                row("z / 0.0 = z / 0.0", "F", "z", 0),
                // NULL and non-numbers make arithmetic unknown
                row("n + 2 < 10", "U"),
                row("-n < 0", "U"),
                row("+n < 0", "U"),
                row("s + 1 = 2", "U", "s", "1"),
                row("-s = -1", "U", "s", "1"),
                row("+s = 1", "U", "s", "1"),
                row("b + 1 = 2", "U", "b", true),
                row("i + n = i", "U", "i", 1));
    }

    static Stream<Arguments> between() {
        return Stream.of(
                row("a BETWEEN 5 AND 10", "T", "a", 7),
                row("a BETWEEN 5 AND 10", "T", "a", 5),
                row("a BETWEEN 5 AND 10", "T", "a", 10),
                row("a BETWEEN 5 AND 10", "F", "a", 4),
                row("a BETWEEN 5 AND 10", "F", "a", 11),
                row("a BETWEEN 5 AND 10", "U"),
                row("a BETWEEN 10 AND 5", "F", "a", 7),
                row("a BETWEEN -4 AND 5", "F", "a", -5),
                row("a BETWEEN 1.5 AND 2.5", "T", "a", 2),
                row("a BETWEEN 1 AND 2", "T", "a", 1.5f),
                row("a BETWEEN b - 1 AND b + 1", "T", "a", 3L, "b", 2),
                // not a number: false, and NOT BETWEEN is false too ("age < 15 OR age > 19")
                row("a BETWEEN 5 AND 10", "F", "a", "7"),
                row("a BETWEEN 5 AND 10", "F", "a", "seven"),
                row("a NOT BETWEEN 5 AND 10", "F", "a", "7"),
                row("a NOT BETWEEN 5 AND 10", "F", "a", 7),
                row("a NOT BETWEEN 5 AND 10", "T", "a", 4),
                row("a NOT BETWEEN 5 AND 10", "T", "a", 11),
                row("a NOT BETWEEN 5 AND 10", "U"),
                // a NULL bound: unknown unless the other comparison decides
                row("a BETWEEN lo AND 10", "U", "a", 5),
                row("a BETWEEN lo AND 10", "F", "a", 15),
                row("a NOT BETWEEN lo AND 10", "T", "a", 15),
                row("a NOT BETWEEN lo AND 10", "U", "a", 5),
                row("a BETWEEN 5 AND 10 AND b BETWEEN -1 AND 1 AND c BETWEEN 0 AND 2", "T",
                        "a", 7, "b", -1, "c", 2));
    }

    static Stream<Arguments> in() {
        return Stream.of(
                row("c IN ('UK', 'US', 'France')", "T", "c", "UK"),
                row("c IN ('UK', 'US', 'France')", "F", "c", "Peru"),
                row("c IN ('UK', 'US', 'France')", "F", "c", "uk"),
                row("c IN ('UK', 'US', 'France')", "U"),
                row("c IN ('UK', 'US', 'France')", "U", "c", 1),
                row("c NOT IN ('UK', 'US', 'France')", "F", "c", "UK"),
                row("c NOT IN ('UK', 'US', 'France')", "T", "c", "Peru"),
                row("c NOT IN ('UK', 'US', 'France')", "U"),
                row("c NOT IN ('foo', 'jms', 'test')", "U", "c", 0), // identifier must hold a string
                row("c NOT IN ('1')", "U", "c", true),
                row("c IN ('a', 'a')", "T", "c", "a"),
                row("c IN ('', 'x')", "T", "c", ""),
                row("c IN ('it''s')", "T", "c", "it's"),
                row("c IN ('a','b','c','d','e','f','g','h','i','j','k')", "T", "c", "k"),
                row("c IN ('a','b','c','d','e','f','g','h','i','j','k')", "F", "c", "z"),
                row("c NOT IN ('a','b','c','d','e','f','g','h','i','j','k')", "T", "c", "z"));
    }

    static Stream<Arguments> like() {
        return Stream.of(
                row("phone LIKE '12%3'", "T", "phone", "123"),
                row("phone LIKE '12%3'", "T", "phone", "12993"),
                row("phone LIKE '12%3'", "F", "phone", "1234"),
                row("word LIKE 'l_se'", "T", "word", "lose"),
                row("word LIKE 'l_se'", "F", "word", "loose"),
                row("u LIKE '\\_%' ESCAPE '\\'", "T", "u", "_foo"),
                row("u LIKE '\\_%' ESCAPE '\\'", "F", "u", "bar"),
                row("phone NOT LIKE '12%3'", "F", "phone", "123"),
                row("phone NOT LIKE '12%3'", "F", "phone", "12993"),
                row("phone NOT LIKE '12%3'", "T", "phone", "1234"),
                row("s LIKE 'a%'", "U"),
                row("s NOT LIKE 'a%'", "U"),
                row("s LIKE '1_3'", "U", "s", 123), // not a string
                row("s NOT LIKE '1_3'", "U", "s", 123),
                row("s LIKE 'jms'", "T", "s", "jms"),
                row("s LIKE 'jms'", "F", "s", "jms0"),
                row("s LIKE 'JMS'", "F", "s", "jms"), // case-sensitive
                row("s LIKE '%'", "T", "s", ""),
                row("s LIKE '%%'", "T", "s", "abc"),
                row("s LIKE ''", "T", "s", ""),
                row("s LIKE ''", "F", "s", "a"),
                row("s LIKE '_'", "F", "s", ""),
                row("s LIKE 's%tor'", "T", "s", "selector"),
                row("s LIKE '%cd'", "T", "s", "abcd"),
                row("s LIKE '1%'", "T", "s", "1234"),
                row("s LIKE 'AB%CD'", "T", "s", "ABxyzCD"),
                row("s LIKE 'AB%CD'", "F", "s", "ABC"),
                row("s LIKE '%bc%'", "T", "s", "abcd"),
                row("s LIKE '%bc%'", "F", "s", "acbd"),
                row("s LIKE '_bcd'", "T", "s", "abcd"),
                row("s LIKE 'a%c%e'", "T", "s", "abcde"),
                row("s LIKE 'a%c%e'", "T", "s", "ace"),
                row("s LIKE 'a%c%e'", "F", "s", "abde"),
                row("s LIKE '%a%b%c'", "T", "s", "xaxbxc"),
                row("s LIKE '%a%a%a%c'", "F", "s", "aaaaaaaaaaaaaaaaaaaaaaaaab"),
                row("s LIKE '%ab_'", "T", "s", "abababx"),
                row("s LIKE '_%_'", "T", "s", "ab"),
                row("s LIKE '_%_'", "F", "s", "a"),
                // the TCK's escape cases
                row("s LIKE 'A_fo_A%f%' ESCAPE 'A'", "T", "s", "_foo%foo"),
                row("s LIKE 'A_fo_A%f%' ESCAPE 'A'", "F", "s", "xfoo%foo"),
                row("s LIKE 'A%fooA_' ESCAPE 'A'", "T", "s", "%foo_"),
                row("s NOT LIKE 'A_A_' ESCAPE 'A'", "T", "s", "ab"),
                row("s NOT LIKE 'A_A_' ESCAPE 'A'", "F", "s", "__"),
                row("s LIKE '\\__\\%%' ESCAPE '\\'", "T", "s", "_a%xyz"),
                row("s LIKE '\\__\\%%' ESCAPE '\\'", "F", "s", "a_%"),
                row("s LIKE 'fooG_%' ESCAPE 'G'", "T", "s", "foo_bar"),
                row("s LIKE 'fooG_%' ESCAPE 'G'", "F", "s", "fooxbar"),
                row("s LIKE 'a!!b' ESCAPE '!'", "T", "s", "a!b"),
                row("s LIKE '%%' ESCAPE '%'", "F", "s", "x"),
                row("s LIKE '%%%%' ESCAPE '%'", "T", "s", "%%"),
                // no regular-expression semantics leak through
                row("s LIKE 'a.c'", "F", "s", "abc"),
                row("s LIKE 'a.c'", "T", "s", "a.c"),
                row("s LIKE '(a)*[b]+\\d$'", "T", "s", "(a)*[b]+\\d$"),
                row("s LIKE 'a%b'", "T", "s", "a\nb"),
                // characters are code points
                row("s LIKE '_'", "T", "s", "😀"),
                row("s LIKE '__'", "F", "s", "😀"),
                row("s LIKE 'x_y'", "T", "s", "x😀y"),
                row("s LIKE '%😀'", "T", "s", "ab😀"),
                row("s LIKE '%_😀'", "F", "s", "😀"));
    }

    static Stream<Arguments> isNull() {
        return Stream.of(
                row("x IS NULL", "T"),
                row("x IS NULL", "F", "x", 1),
                row("x IS NULL", "F", "x", ""),
                row("x IS NULL", "F", "x", false),
                row("x IS NOT NULL", "F"),
                row("x IS NOT NULL", "T", "x", "a"),
                row("x IS NOT NULL", "T", "x", new byte[] {1}), // an unsupported type is not NULL
                row("x = 1 OR x IS NULL", "T"),
                row("NOT x IS NULL", "T", "x", 0));
    }

    static Stream<Arguments> literals() {
        return Stream.of(
                row("p = 29", "T", "p", 29L),
                row("p = 035", "T", "p", 29L), // octal
                row("p = 0x1d", "T", "p", 29L),
                row("p = 0X1D", "T", "p", 29L),
                row("p = 0b11101", "T", "p", 29L),
                row("p = 29L", "T", "p", 29),
                row("p = 1_000", "T", "p", 1000),
                row("p = 0", "T", "p", 0),
                row("p = 00", "T", "p", 0),
                row("p = 0xFFFFFFFF", "T", "p", 4294967295L), // literals are magnitudes, not two's complement
                row("p = 0x7fffffffffffffff", "T", "p", Long.MAX_VALUE),
                row("p = 2147483648", "T", "p", 2147483648L),
                row("p = -2147483648", "T", "p", Integer.MIN_VALUE),
                row("p = 7E3", "T", "p", 7000.0),
                row("p = -57.9E3", "T", "p", -57900.0),
                row("p = 7000.", "T", "p", 7000.0),
                row("p = .7e4", "T", "p", 7000.0),
                row("p = 1.5", "T", "p", 1.5),
                row("p = .5", "T", "p", 0.5),
                row("p = 1e3", "T", "p", 1000),
                row("p = 1E-3", "T", "p", 0.001),
                row("p = 1.5F", "T", "p", 1.5f),
                row("p = 1d", "T", "p", 1.0),
                row("p = 1f", "T", "p", 1),
                row("p = 0x1.8p1", "T", "p", 3.0),
                row("p = 08.5", "T", "p", 8.5),
                row("p = 1.7976931348623157E308", "T", "p", Double.MAX_VALUE),
                row("p = 4.9E-324", "T", "p", Double.MIN_VALUE),
                row("0x10 = 16", "T"),
                row("1e3 = 1000", "T"),
                row("1 = 1.0", "T"),
                row("'a' = 'a'", "T"),
                row("'a' <> 'a'", "F"),
                row("TRUE = FALSE", "F"),
                row("TRUE <> FALSE", "T"));
    }

    static Stream<Arguments> headerFields() {
        return Stream.of(
                row("JMSDeliveryMode = 'PERSISTENT'", "T", "JMSDeliveryMode", 2),
                row("JMSDeliveryMode = 'PERSISTENT'", "F", "JMSDeliveryMode", 1),
                row("JMSDeliveryMode = 'NON_PERSISTENT'", "T", "JMSDeliveryMode", 1),
                row("JMSDeliveryMode <> 'PERSISTENT'", "T", "JMSDeliveryMode", 1),
                row("JMSDeliveryMode IN ('PERSISTENT')", "T", "JMSDeliveryMode", 2),
                row("JMSDeliveryMode LIKE 'NON%'", "T", "JMSDeliveryMode", 1),
                row("JMSDeliveryMode = 'PERSISTENT'", "T", "JMSDeliveryMode", "PERSISTENT"),
                row("JMSDeliveryMode = 2", "F", "JMSDeliveryMode", 2), // it is a string in selectors
                row("JMSDeliveryMode = 'persistent'", "F", "JMSDeliveryMode", 2),
                row("JMSPriority > 4", "T", "JMSPriority", 7),
                row("JMSPriority BETWEEN 0 AND 4", "F", "JMSPriority", 7),
                row("JMSMessageID = 'ID:42'", "T", "JMSMessageID", "ID:42"),
                row("JMSMessageID IS NULL", "T"),
                row("JMSTimestamp > 1700000000000", "T", "JMSTimestamp", 1700000000001L),
                row("JMSCorrelationID = 'abc'", "T", "JMSCorrelationID", "abc"),
                row("JMSCorrelationID = 'abc'", "U"),
                row("JMSType = 'car' AND color = 'blue' AND weight > 2500", "T",
                        "JMSType", "car", "color", "blue", "weight", 3000),
                row("JMSType = 'car' AND color = 'blue' AND weight > 2500", "F",
                        "JMSType", "car", "color", "blue", "weight", 2500),
                row("JMSXGroupID = 'g1'", "T", "JMSXGroupID", "g1"));
    }

    static Stream<Arguments> tckScenarios() {
        return Stream.of(
                row("myProp0 is null and myProp1 like 'fooG_%' escape 'G' and myProp2 in ('a', 'b') and "
                        + "myProp3 not between 0 and 10 and (myProp4 or false)", "T",
                        "myProp1", "foo_bar", "myProp2", "a", "myProp3", 20, "myProp4", true),
                row("myProp0 = 'foo' AND myProp1 > 0 AND myProp2 >= 2 AND myProp3 >= 2 AND myProp4 < 5 AND "
                        + "myProp5 <= 6 AND myProp6 <= 6 AND myProp7 <> 7", "T",
                        "myProp0", "foo", "myProp1", 1, "myProp2", 2.0f, "myProp3", 3, "myProp4", 4.0,
                        "myProp5", 5, "myProp6", 6, "myProp7", 0f),
                row("(myTrueProp AND myFalseProp) OR (myTrueProp AND myNullProp) OR (myFalseProp AND myTrueProp) OR "
                        + "(myFalseProp AND myFalseProp) OR (myFalseProp AND myNullProp) OR "
                        + "(MyNullProp AND myTrueProp) OR (MyNullProp AND myFalseProp) OR (MyNullProp AND myNullProp)",
                        "U", "myTrueProp", true, "myFalseProp", false),
                row("(myTrueProp OR myTrueProp) AND (myTrueProp OR myFalseProp) AND (myTrueProp OR myNullProp) AND "
                        + "(myFalseProp OR myTrueProp) AND (myNullProp OR myTrueProp)", "T",
                        "myTrueProp", true, "myFalseProp", false),
                row("(myFalseProp OR myFalseProp) OR (myFalseProp OR myNullProp) OR (myNullProp OR myFalseProp) OR "
                        + "(myNullProp OR myNullProp)", "U", "myFalseProp", false),
                row("myProp0=-9223372036854775808L AND myProp1=9223372036854775807L", "T",
                        "myProp0", Long.MIN_VALUE, "myProp1", Long.MAX_VALUE),
                row("myProp0=-957 AND myProp1=+62", "T", "myProp0", -957L, "myProp1", 62L),
                row("JMSType = 'foo' AND myProp <> 'not_foo'", "T", "JMSType", "foo", "myProp", "foo"));
    }

    @Test
    void unsupportedValueTypesEqualNothingButAreNotNull() throws Exception {
        Selector s = Selector.compile("x = 'a' OR x = 1 OR x = TRUE");
        assertThat(s.matches(n -> new StringBuilder("a"))).isFalse();
        assertThat(Selector.compile("x IS NOT NULL").matches(n -> List.of())).isTrue();
    }

    @Test
    void throwingPropertyLookupDoesNotMatchAndDoesNotThrow() throws Exception {
        Selector s = Selector.compile("x = 1");
        assertThat(s.matches(n -> {
            throw new IllegalStateException("boom");
        })).isFalse();
        // the thread's cached evaluation state was released, not leaked as busy
        EvalContext cached = EvalContext.acquire(n -> null);
        cached.release();
        assertThat(s.matches(n -> {
            throw new IllegalStateException("boom");
        })).isFalse();
        EvalContext again = EvalContext.acquire(n -> null);
        again.release();
        assertThat(again).isSameAs(cached);
        assertThat(s.matches(n -> 1)).isTrue();
    }

    @Test
    void nestedEvaluationFromInsideAPropertyLookupIsIndependent() throws Exception {
        Selector inner = Selector.compile("y BETWEEN 1 AND 3");
        Selector outer = Selector.compile("x + 1 = 2 AND z = 'ok'");
        boolean result = outer.matches(name -> switch (name) {
            case "x" -> inner.matches(n -> 2) ? 1 : 0;
            case "z" -> "ok";
            default -> null;
        });
        assertThat(result).isTrue();
    }

    @Test
    void sharedSelectorEvaluatesConsistentlyAcrossThreads() throws Exception {
        Selector s = Selector.compile("a * 2 > 10 AND c IN ('x', 'y') AND s LIKE 'ab%'");
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Integer>> futures = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                futures.add(pool.submit(() -> {
                    int matched = 0;
                    for (int i = 0; i < 20_000; i++) {
                        int a = i % 10;
                        Map<String, Object> props = Map.of("a", a, "c", i % 3 == 0 ? "x" : "z", "s", "abc");
                        if (s.matches(props::get)) {
                            matched++;
                        }
                    }
                    return matched;
                }));
            }
            int expected = 0;
            for (int i = 0; i < 20_000; i++) {
                if (i % 10 * 2 > 10 && i % 3 == 0) {
                    expected++;
                }
            }
            for (Future<Integer> f : futures) {
                assertThat(f.get()).isEqualTo(expected);
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
