package io.mikyu.selector;

import io.mikyu.engine.FilterExpression;
import io.mikyu.engine.Headers;
import io.mikyu.engine.TaskFilter;
import io.mikyu.engine.TaskView;
import io.mikyu.engine.spi.FilterCompiler;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Selectors and noLocal rules as text, compiled back by the compilers this jar registers for a broker. */
class SelectorExpressionTest {

    private static Map<String, FilterCompiler> compilers() {
        Map<String, FilterCompiler> m = new TreeMap<>();
        ServiceLoader.load(FilterCompiler.class).forEach(c -> m.put(c.language(), c));
        return m;
    }

    private static TaskFilter roundTrip(TaskFilter f) {
        FilterExpression e = f.expression();
        return compilers().get(e.language()).compile(e.text());
    }

    @Test
    void bothLanguagesAreRegistered() {
        assertThat(compilers()).containsKeys(Selector.LANGUAGE, NoLocalFilter.LANGUAGE, "header-equals");
    }

    @Test
    void aSelectorTravelsAsItsTextAndComesBackEqual() throws Exception {
        Selector s = Selector.compile("color IN ('red', 'blue') AND weight > 0x10");
        assertThat(s.expression()).isEqualTo(new FilterExpression("jms-selector",
                "color IN ('red', 'blue') AND weight > 0x10"));
        assertThat(roundTrip(s)).isEqualTo(s).hasSameHashCodeAs(s);
        assertThat(roundTrip(Selector.MATCH_ALL)).isEqualTo(Selector.MATCH_ALL);
        assertThatThrownBy(() -> compilers().get(Selector.LANGUAGE).compile("color = "))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("selector");
    }

    @Test
    void aNoLocalFilterTravelsWithItsConnectionAndSelector() throws Exception {
        NoLocalFilter f = new NoLocalFilter("0123abcd", Selector.compile("urgent = TRUE"));
        assertThat(f.expression().text()).isEqualTo("0123abcd urgent = TRUE");
        TaskFilter back = roundTrip(f);
        assertThat(back).isEqualTo(f);
        assertThat(roundTrip(new NoLocalFilter("x", Selector.MATCH_ALL))).isEqualTo(
                new NoLocalFilter("x", Selector.MATCH_ALL));

        TaskView mine = view(Headers.builder().add(NoLocalFilter.CONNECTION_HEADER,
                "0123abcd".getBytes(StandardCharsets.UTF_8)).build());
        TaskView theirs = view(Headers.builder().add(NoLocalFilter.CONNECTION_HEADER,
                "ffff".getBytes(StandardCharsets.UTF_8)).build());
        NoLocalFilter all = new NoLocalFilter("0123abcd", Selector.MATCH_ALL);
        assertThat(all.matches(mine)).isFalse();
        assertThat(all.matches(theirs)).isTrue();
        assertThatThrownBy(() -> compilers().get(NoLocalFilter.LANGUAGE).compile("noSpace"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static TaskView view(Headers headers) {
        return new SelectorTaskViewTest.Task(headers, 0);
    }
}
