package io.mikyu.engine.body;

import io.mikyu.engine.LargeBody;
import io.mikyu.engine.internal.body.BodyStore;
import io.mikyu.engine.internal.body.BodyWriter;
import io.mikyu.engine.internal.files.PowerLossFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The power goes at every write and fsync of a body's write and publish: afterwards the body is either absent or
 * whole (never a part of it), it is there whenever {@code publish} returned, and nothing is left pending.
 */
class BodyPowerLossTest {

    private static final byte[] BODY = new byte[40_000];

    static {
        new SplittableRandom(11).nextBytes(BODY);
    }

    @TempDir
    Path tmp;

    @Test
    void afterAPowerLossABodyIsWholeOrAbsent() throws Exception {
        long events = run(tmp.resolve("uncut"), 0).events;
        assertThat(events).as("writes and fsyncs of one body").isGreaterThan(10);
        for (long cut = 1; cut <= events + 1; cut++) {
            Path dir = tmp.resolve("cut-" + cut);
            Run run = run(dir, cut);
            for (String image : List.of("synced", "written-back")) {
                String what = "cut at event " + cut + " of " + events + " (" + image + "), publish "
                        + (run.published ? "returned" : "did not return");
                BodyStore after = BodyStore.open(dir.resolve(image));
                List<String> ids = after.publishedIds();
                if (run.published) {
                    assertThat(ids).as(what).containsExactly(run.id);
                } else {
                    assertThat(ids).as(what).isSubsetOf(run.id == null ? List.of() : List.of(run.id));
                }
                for (String id : ids) {
                    try (InputStream in = after.open(id)) {
                        assertThat(in.readAllBytes()).as(what).isEqualTo(BODY);
                    }
                }
                try (var pending = Files.list(dir.resolve(image).resolve("bodies").resolve("pending"))) {
                    assertThat(pending).as(what).isEmpty();
                }
            }
        }
    }

    private record Run(long events, boolean published, String id) {
    }

    private Run run(Path dir, long cut) throws Exception {
        Path data = Files.createDirectories(dir.resolve("data"));
        boolean published = false;
        String id;
        long events;
        try (PowerLossFileSystem disk = PowerLossFileSystem.install(data, dir.resolve("durable"))) {
            BodyStore store = BodyStore.open(data, 4096);
            long start = disk.events();
            if (cut > 0) {
                disk.cutAtEvent(cut);
            }
            String made = null;
            try {
                BodyWriter w = store.create();
                made = w.id();
                w.writeFrom(new ByteArrayInputStream(BODY));
                LargeBody ref = w.publish();
                published = !disk.isCut();
                assertThat(ref.length()).isEqualTo(BODY.length);
            } catch (Exception e) {
                assertThat(disk.isCut()).as("the publish failed with the power on: " + e).isTrue();
            }
            id = made;
            events = disk.events() - start;
            disk.cut();
            disk.materialize(dir.resolve("synced"));
            Predicate<Path> everything = p -> true;
            disk.materialize(dir.resolve("written-back"), everything);
        }
        return new Run(events, published, id);
    }
}
