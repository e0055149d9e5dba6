package io.mikyu.engine.shared;

import io.mikyu.engine.Entry;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.OffsetReset;
import io.mikyu.engine.SharedGroup;
import io.mikyu.engine.SharedGroupConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A new shared group starts where its creator says; an existing one keeps its place. */
@Timeout(30)
class SharedGroupStartTest {

    @TempDir
    Path data;

    @Test
    void aGroupCreatedAtTheLatestOffsetSeesOnlyLaterRecords() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            LogQueue log = store.createLog("events");
            log.append(Entry.of("before"));
            SharedGroup g = log.sharedGroup("sub", SharedGroupConfig.defaults(), null, OffsetReset.latest());
            log.append(Entry.of("after"));
            List<SharedGroup.Delivery> d = g.fetch(10, Duration.ofSeconds(30), Duration.ofSeconds(5));
            assertThat(d).extracting(x -> x.record().payloadAsString()).containsExactly("after");
        }
    }

    @Test
    void theStartOnlyAppliesWhenTheGroupIsNew() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            LogQueue log = store.createLog("events");
            log.append(Entry.of("one"));
            log.sharedGroup("sub", SharedGroupConfig.defaults());
            log.append(Entry.of("two"));
            SharedGroup again = log.sharedGroup("sub", SharedGroupConfig.defaults(), null, OffsetReset.latest());
            List<SharedGroup.Delivery> d = again.fetch(10, Duration.ofSeconds(30), Duration.ofSeconds(5));
            assertThat(d).extracting(x -> x.record().payloadAsString()).containsExactly("one", "two");
        }
        try (Mikyu store = Mikyu.open(data)) {
            LogQueue log = store.log("events");
            log.append(Entry.of("three"));
            SharedGroup g = log.sharedGroup("later", SharedGroupConfig.defaults(), null, OffsetReset.latest());
            log.append(Entry.of("four"));
            assertThat(g.fetch(10, Duration.ofSeconds(30), Duration.ofSeconds(5)))
                    .extracting(x -> x.record().payloadAsString()).containsExactly("four");
        }
    }
}
