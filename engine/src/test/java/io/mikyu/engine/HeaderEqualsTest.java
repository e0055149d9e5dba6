package io.mikyu.engine;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** The text of a header-equals filter is a URL query, read by the same rules as every URL's. */
class HeaderEqualsTest {

    @Test
    void theTextReadsBackAsTheSameFilter() {
        HeaderEquals filter = new HeaderEquals(Map.of("type", "order & co", "region", "été=1+1", "empty", ""));
        assertThat(HeaderEquals.parse(filter.expression().text())).isEqualTo(filter);
        assertThat(filter.expression().language()).isEqualTo(HeaderEquals.LANGUAGE);
    }

    @Test
    void aHeaderNamedTwiceIsRefusedRatherThanOneValueWinningSilently() {
        assertThatIllegalArgumentException().isThrownBy(() -> HeaderEquals.parse("type=a&type=b"))
                .withMessageContaining("option 'type' is given twice");
    }

    @Test
    void aMalformedEscapeIsNamed() {
        assertThatIllegalArgumentException().isThrownBy(() -> HeaderEquals.parse("type=100%"))
                .withMessageContaining("the value of option 'type'").withMessageContaining("percent-encoded");
    }

    @Test
    void aPairWithoutANameIsRefused() {
        assertThatIllegalArgumentException().isThrownBy(() -> HeaderEquals.parse("=x"))
                .withMessageContaining("is not name=value");
    }
}
