package io.mikyu.engine;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.entry;

/** The rules of a URL's options ({@code name=value&...}), on every surface. */
class UrlQueryTest {

    private static final String PASSWORD = "correct-horse-battery";

    @Test
    void readsPairsInOrderPercentDecoded() {
        assertThat(UrlQuery.parse("b=2&a=1&path=%2Fvar%2Flib&space=a+b&pct=100%25&utf=%C3%A9t%C3%A9", "u"))
                .containsExactly(entry("b", "2"), entry("a", "1"), entry("path", "/var/lib"), entry("space", "a b"),
                        entry("pct", "100%"), entry("utf", "été"));
    }

    @Test
    void anEmptyValueIsKeptAndANameAloneHasTheEmptyValue() {
        assertThat(UrlQuery.parse("clientID=&allowAnonymous", "u"))
                .containsExactly(entry("clientID", ""), entry("allowAnonymous", ""));
    }

    @Test
    void skipsEmptyPairs() {
        assertThat(UrlQuery.parse("&a=1&&b=2&", "u")).containsExactly(entry("a", "1"), entry("b", "2"));
        assertThat(UrlQuery.parse("", "u")).isEmpty();
        assertThat(UrlQuery.parse(null, "u")).isEmpty();
        assertThat(UrlQuery.ofUrl("tcp://h:1")).isEmpty();
    }

    @Test
    void aValueMayHoldAnEqualsSign() {
        assertThat(UrlQuery.parse("expr=a=b", "u")).containsExactly(entry("expr", "a=b"));
    }

    @Test
    void refusesANameGivenTwiceNamingItButNoValue() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> UrlQuery.ofUrl("tcp://h:1?password=" + PASSWORD + "&password=other"))
                .withMessageContaining("option 'password' is given twice")
                .withMessageContaining("password=****")
                .withMessageNotContaining(PASSWORD).withMessageNotContaining("other");
        assertThatIllegalArgumentException().isThrownBy(() -> UrlQuery.parse("a=1&%61=2", "u"))
                .withMessageContaining("option 'a' is given twice");
    }

    @Test
    void refusesAnEmptyNameWithoutShowingTheValue() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> UrlQuery.ofUrl("tcp://h:1?password=" + PASSWORD + "&=" + PASSWORD))
                .withMessageContaining("is not name=value")
                .withMessageNotContaining(PASSWORD);
    }

    @Test
    void refusesAMalformedEscapeNamingTheOptionButNotItsValue() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> UrlQuery.ofUrl("tcp://h:1?password=" + PASSWORD + "%zz"))
                .withMessageContaining("the value of option 'password'")
                .withMessageContaining("percent-encoded")
                .withMessageNotContaining(PASSWORD);
        assertThatIllegalArgumentException().isThrownBy(() -> UrlQuery.parse("a%4=1", "u"))
                .withMessageContaining("option name 'a%4'");
    }

    @Test
    void refusesAnUnknownNameListingTheKnownOnesWithoutThePassword() {
        String url = "tcp://h:1?password=" + PASSWORD + "&prefech=4";
        Map<String, String> options = UrlQuery.ofUrl(url);
        assertThatIllegalArgumentException()
                .isThrownBy(() -> UrlQuery.requireKnown(options, Set.of("password", "prefetch")::contains,
                        Set.of("prefetch", "password"), url))
                .withMessageContaining("unknown option 'prefech'")
                .withMessageContaining("known: password, prefetch")
                .withMessageContaining("password=****")
                .withMessageNotContaining(PASSWORD);
    }

    @Test
    void writesWhatItReadsBack() {
        Map<String, String> options = new LinkedHashMap<>();
        options.put("password", "a&b=c d%é+");
        options.put("config", "/etc/mikyu.conf");
        options.put("empty", "");
        assertThat(UrlQuery.parse(UrlQuery.encode(options), "u")).isEqualTo(options);
    }

    @Test
    void addsOptionsToAUrlReplacingTheOnesItHas() {
        String url = UrlQuery.withOptions("vm:///data?durability=async&prefetch=4",
                Map.of("prefetch", "8", "clientID", "a b"));
        assertThat(url).startsWith("vm:///data?");
        assertThat(UrlQuery.ofUrl(url)).containsExactly(entry("durability", "async"), entry("prefetch", "8"),
                entry("clientID", "a b"));
        assertThat(UrlQuery.withOptions("tcp://h:1", Map.of())).isEqualTo("tcp://h:1");
    }
}
