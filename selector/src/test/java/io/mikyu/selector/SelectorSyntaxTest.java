package io.mikyu.selector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class SelectorSyntaxTest {

    static Stream<String> validSelectors() {
        return Stream.of(
                // Jakarta Messaging TCK (selectorQueue/selectorTopic) selectors
                "JMSType='literal'",
                "JMSType='literal''s'",
                "myProp0=-9223372036854775808L AND myProp1=9223372036854775807L",
                "myProp0=-957 AND myProp1=+62",
                "myProp=035",
                "myProp=0x1d",
                "myProp0=7E3 AND myProp1=-57.9E3",
                "myProp=7000.",
                "myProp0=.7e4",
                "myProp0=TRUE AND myProp1=FALSE",
                "myProp0=false AND myProp1=true",
                "$myProp=TRUE AND _myProp=FALSE",
                "myProp=TRUE AND MYpROP=FALSE",
                "JMSType   =   'foo'",
                "JMSType\t=\t'foo'",
                "JMSType\f=\f'foo'",
                "JMSType\n= \n'foo'",
                "JMSType\r\n=\r\n'foo'",
                "myProp",
                "(myTrueProp OR myFalseProp) AND myFalseProp",
                "TRUE OR (FALSE AND FALSE)",
                "(myProp0 = true OR myProp1 = true) AND JMSType = 'not_foo'",
                "myProp0 = 'foo' AND myProp1 > 0 AND myProp2 >= 2 AND myProp3 >= 2 AND myProp4 < 5 AND "
                        + "myProp5 <= 6 AND myProp6 <= 6 AND myProp7 <> 7",
                "myProp0 < myProp1",
                "-myProp0 < 0 AND +myProp1 < 0",
                "myProp0*2 = 10 AND myProp1/2 = -5",
                "myProp0+5 = 0 AND myProp1-5 = 5",
                "myProp0 BETWEEN 5 and 10 AND myProp1 BETWEEN -1 and 1 AND myProp2 BETWEEN 0 and 2",
                "myProp0 NOT BETWEEN  -4 and 5 AND myProp1 NOT BETWEEN -5 and 4",
                "JMSType IN ('foo','jms','test')",
                "JMSType NOT IN ('foo','jms','test')",
                "JMSType LIKE 'A_fo_A%f%' ESCAPE 'A'",
                "JMSType LIKE '\\__\\%%' ESCAPE '\\'",
                "myNullProp IS NULL",
                "myProp IS NOT NULL",
                "myProp0 is null and myProp1 like 'fooG_%' escape 'G' and myProp2 in ('a', 'b') and "
                        + "myProp3 not between 0 and 10 and (myProp4 or false)",
                "NOT myTrueProp AND myFalseProp",
                "myTrueProp OR myTrueProp AND myFalseProp",
                "- myProp0 + myProp1 = 0",
                "myProp0+myProp1*myProp2-myProp3/myProp4 = 6",
                // further valid forms
                "JMSType = 'car' AND color = 'blue' AND weight > 2500",
                "JMSDeliveryMode = 'PERSISTENT' AND JMSPriority >= 5",
                "JMSMessageID = 'ID:1' OR JMSCorrelationID = 'c' OR JMSTimestamp > 0",
                "JMSXGroupID = 'g' AND JMS_mikyu_x = 1 AND JMSExpiration > 0",
                "a = 1 and b = 2 or not c",
                "(a)",
                "((a = 1))",
                "a = - 9223372036854775808",
                "a = 1.5F AND b = 1d AND c = 0x1.8p1 AND d = 1_000 AND e = 0b101 AND f = 0XFFl",
                "a = 1e3 AND b = 1E-3 AND c = 1.5e+2 AND d = 08.5 AND e = 0",
                "a = 'it''s' AND b = '' AND c = 'multi\nline'",
                "é = 'x' AND ın = 'y' AND a1$_ = 'z'",
                "a = b AND a <> b AND a < b AND a <= b AND a > b AND a >= b",
                "(a = 1) = TRUE",
                "(a = 1) <> (b = 2)",
                "- - 1 = a",
                "-(-a) = 1",
                "+a = 1",
                "a * -1 = 1",
                "a / b * c - d + e = 1",
                "TRUE",
                "FALSE",
                "tRuE = b",
                "x NOT LIKE '%%' ESCAPE '%'",
                "x IN ('a')");
    }

    @ParameterizedTest
    @MethodSource("validSelectors")
    void compilesValidSelector(String selector) {
        assertDoesNotThrow(() -> Selector.compile(selector));
    }

    @ParameterizedTest
    @MethodSource("validSelectors")
    void normalizedTextRecompilesToAnEqualSelector(String selector) throws Exception {
        Selector s = Selector.compile(selector);
        Selector again = Selector.compile(s.toString());
        assertThat(again).isEqualTo(s);
        assertThat(again.toString()).isEqualTo(s.toString());
    }

    static Stream<String> invalidSelectors() {
        return Stream.of(
                // Jakarta Messaging TCK invalid selectors
                "NULL = 0", "TRUE = 0", "FALSE = 0", "NOT = 0", "AND = 0", "OR = 0", "BETWEEN = 0", "LIKE = 0",
                "IN = 0", "IS = 0", "ESCAPE = 0",
                "myProp > 'foo'", "myProp >= 'foo'", "myProp < 'foo'", "myProp <= 'foo'",
                "'foo' > TRUE ", "'foo' >= TRUE ", "'foo' < TRUE ", "'foo' <= TRUE ",
                "myProp BETWEEN 'foo' and 'test'",
                "myProp NOT IN (1,2,3)",
                "myProp LIKE 7",
                // reserved words are case-insensitive
                "null = 0", "Null = 0", "and = 0", "Escape = 0", "is = 1",
                // incomplete or malformed
                "a =", "= 1", "a = 1 AND", "a = 1 OR", "NOT", "(a = 1", "a = 1)", "()", "a == 1", "a != 1",
                "a = \"x\"", "a = 'unterminated", "a = 1 ;", "a = 1 /* c */", "a = 1 b", "a b", "a = 1,",
                // LIKE / IN / IS / BETWEEN shape
                "a LIKE 'x' ESCAPE ''", "a LIKE 'x' ESCAPE 'ab'", "a LIKE 'x!' ESCAPE '!'", "a LIKE b",
                "a LIKE 'x' ESCAPE b", "a IN ()", "a IN ('x',)", "a IN 'x'", "a IN ('x' 'y')", "a IN ('x'",
                "a IN (b)", "a IS 1", "a IS NOT 1", "a IS", "a NOT 1", "a NOT NULL", "a BETWEEN 1",
                "a BETWEEN 1 OR 2", "a BETWEEN TRUE AND 2", "a BETWEEN 1 AND 'z'", "'a' BETWEEN 1 AND 2",
                "'a' LIKE 'a'", "1 IN ('a')", "(a = 1) IS NULL", "a + 1 IS NULL", "a IS NULL IS NULL",
                "a = 1 = 1", "a LIKE 'x' LIKE 'y'",
                // types that can be told statically
                "1", "'x'", "a + 1", "-a", "a AND 1", "1 OR a", "NOT 'x'", "NOT 1", "TRUE + 1", "'a' + 1",
                "-'a' = 1", "+TRUE = 1", "'a' = 1", "1 = 'a'", "TRUE = 'x'", "(a = 1) = 1", "(a = 1) < TRUE",
                "(a + 1) = 'x'", "a = NULL", "a <> NULL", "NULL IS NULL", "(a = 1) * 2 = 2",
                // numeric literals
                "a = 09", "a = 0x", "a = 0xg", "a = 0x1g", "a = 1e", "a = 1e+", "a = 1_", "a = 1._5", "a = 0x_1",
                "a = 12abc", "a = 0b", "a = 0b2", "a = 078", "a = 1.5.3", "a = 1..2", "a = 0x1.8",
                "9223372036854775808 = a", "a = 9223372036854775808L", "a = +9223372036854775808",
                "a = 99999999999999999999", "a = 0x1FFFFFFFFFFFFFFFF", "a = 1e400", "a = 1e-400", "a = 1e39F",
                // characters that are not part of the syntax
                "a = 1 # x", "a = `b`", "a\u00A0= 1", "a = 1\u0000", "[a] = 1", "a.b = 1", "a-b", "a:b = 1");
    }

    @ParameterizedTest
    @MethodSource("invalidSelectors")
    void rejectsInvalidSelectorWithSelectorSyntaxException(String selector) {
        assertThatThrownBy(() -> Selector.compile(selector))
                .isInstanceOf(SelectorSyntaxException.class)
                .hasMessageContaining("at position")
                .hasMessageContaining(selector);
    }

    @Test
    void errorMessageNamesTheProblemAndItsPosition() {
        assertThatThrownBy(() -> Selector.compile("a = 1 AND b > 'x'"))
                .isInstanceOf(SelectorSyntaxException.class)
                .hasMessageContaining("compares numbers only")
                .hasMessageContaining("at position 14");
        assertThatThrownBy(() -> Selector.compile("color = 'blue"))
                .hasMessageContaining("unterminated string literal at position 8");
        assertThatThrownBy(() -> Selector.compile("(a = 1"))
                .hasMessageContaining("unbalanced '(' at position 0");
        assertThatThrownBy(() -> Selector.compile("a = 1 AND"))
                .hasMessageContaining("unexpected end of selector at position 9");
        assertThatThrownBy(() -> Selector.compile("AND = 0"))
                .hasMessageContaining("reserved words cannot be used as identifiers")
                .hasMessageContaining("at position 0");
        assertThatThrownBy(() -> Selector.compile("x = NULL"))
                .hasMessageContaining("IS NULL");
        assertThatThrownBy(() -> Selector.compile("TRUE = 0"))
                .hasMessageContaining("cannot compare a boolean with a number at position 5");
        assertThatThrownBy(() -> Selector.compile("p = 9223372036854775808"))
                .hasMessageContaining("out of the range of long at position 4");
        assertThatThrownBy(() -> Selector.compile("a != 1"))
                .hasMessageContaining("use '<>'");
    }

    @Test
    void nullEmptyAndBlankSelectorsMeanMatchAll() throws Exception {
        assertThat(Selector.compile(null)).isSameAs(Selector.MATCH_ALL);
        assertThat(Selector.compile("")).isSameAs(Selector.MATCH_ALL);
        assertThat(Selector.compile(" \t\n ")).isSameAs(Selector.MATCH_ALL);
        assertThat(Selector.MATCH_ALL.isMatchAll()).isTrue();
        assertThat(Selector.MATCH_ALL.matches(name -> null)).isTrue();
    }

    @Test
    void literalTrueSelectorIsMatchAll() throws Exception {
        assertThat(Selector.compile("TRUE")).isSameAs(Selector.MATCH_ALL);
        assertThat(Selector.compile(" ( true ) ")).isSameAs(Selector.MATCH_ALL);
        assertThat(Selector.compile("FALSE").isMatchAll()).isFalse();
    }

    @Test
    void keywordsAreCaseInsensitiveButOnlyForAsciiLetters() throws Exception {
        assertThat(Selector.compile("a like 'x%' escape '!' AnD b iS nOt NuLl oR c nOt BeTwEeN 1 aNd 2"))
                .isEqualTo(Selector.compile("a LIKE 'x%' ESCAPE '!' AND b IS NOT NULL OR c NOT BETWEEN 1 AND 2"));
        // U+0131 (dotless i) upper-cases to I, but "ın" is an identifier, not the keyword IN
        assertThat(Selector.compile("ın = 'x'").matches(n -> n.equals("ın") ? "x" : null)).isTrue();
    }

    @Test
    void deeplyNestedSelectorsAreRejectedNotStackOverflowing() {
        String parens = "(".repeat(5000) + "a" + ")".repeat(5000);
        String nots = "NOT ".repeat(5000) + "a";
        String minus = "- ".repeat(5000) + "a = 1";
        String sum = "a" + " + a".repeat(5000) + " = 1";
        for (String s : new String[] {parens, nots, minus, sum}) {
            assertThatThrownBy(() -> Selector.compile(s))
                    .isInstanceOf(SelectorSyntaxException.class)
                    .hasMessageContaining("nested too deeply");
        }
    }

    @Test
    void longFlatAndOrChainsAreFine() throws Exception {
        String chain = "a = 0" + " OR a = 1".repeat(5000);
        assertThat(Selector.compile(chain).matches(n -> 1)).isTrue();
        String and = "a = 1" + " AND a = 1".repeat(5000);
        assertThat(Selector.compile(and).matches(n -> 1)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"a = 1 -- x", "a = 1 - -x"})
    void doubleMinusIsNotACommentButTwoMinusSigns(String selector) throws Exception {
        Selector s = Selector.compile(selector);
        assertThat(s.matches(n -> n.equals("a") ? 3 : 2)).isTrue();
    }
}
