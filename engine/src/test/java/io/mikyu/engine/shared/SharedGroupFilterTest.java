package io.mikyu.engine.shared;

import io.mikyu.engine.Entry;
import io.mikyu.engine.Headers;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.SharedGroup;
import io.mikyu.engine.SharedGroupConfig;
import io.mikyu.engine.TaskFilter;
import io.mikyu.engine.TaskView;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.mikyu.engine.shared.SharedTesting.LONG_LEASE;
import static io.mikyu.engine.shared.SharedTesting.config;
import static org.assertj.core.api.Assertions.assertThat;

/** A shared group's admission filter and stored attributes: what a JMS subscription with a selector needs. */
class SharedGroupFilterTest {

    @TempDir
    Path data;

    record ColourIs(String colour) implements TaskFilter {
        @Override
        public boolean matches(TaskView task) {
            return colour.equals(task.headers().getString("colour"));
        }
    }

    private static Entry coloured(String payload, String colour) {
        return Entry.of(payload).withHeaders(Headers.of("colour", colour));
    }

    @Test
    void recordsTheFilterRejectsAreNeverDeliveredAndDoNotHoldTheCommittedOffset() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            LogQueue q = store.createLog("events");
            q.append(coloured("r1", "red"));
            q.append(coloured("b1", "blue"));
            q.append(coloured("r2", "red"));
            SharedGroup g = q.sharedGroup("reds", config(100, 3), new ColourIs("red"));
            List<SharedGroup.Delivery> ds = g.fetch(10, LONG_LEASE, Duration.ZERO);
            assertThat(ds).extracting(d -> d.record().payloadAsString()).containsExactly("r1", "r2");
            g.ack(ds.stream().map(SharedGroup.Delivery::token).toList());
            assertThat(g.committedOffset()).isEqualTo(3);
        }
    }

    @Test
    void attributesAreStoredWithTheGroupAndTheFilterIsAppliedAgainAfterReopen() throws Exception {
        SharedGroupConfig withSelector = config(100, 3).withAttributes(Map.of("selector", "colour = 'red'"));
        try (Mikyu store = Mikyu.open(data)) {
            LogQueue q = store.createLog("events");
            SharedGroup g = q.sharedGroup("reds", withSelector, new ColourIs("red"));
            q.append(coloured("r1", "red"));
            List<SharedGroup.Delivery> ds = g.fetch(10, LONG_LEASE, Duration.ZERO);
            assertThat(ds).hasSize(1); // leased, not acked
            q.append(coloured("b1", "blue"));
            q.append(coloured("r2", "red"));
        }
        try (Mikyu store = Mikyu.open(data)) {
            LogQueue q = store.log("events");
            SharedGroup g = q.sharedGroup("reds", config(100, 3), new ColourIs("red"));
            assertThat(g.config().attributes()).containsEntry("selector", "colour = 'red'");
            List<SharedGroup.Delivery> ds = g.fetch(10, LONG_LEASE, Duration.ZERO);
            assertThat(ds).extracting(d -> d.record().payloadAsString()).containsExactly("r2");
        }
    }
}
