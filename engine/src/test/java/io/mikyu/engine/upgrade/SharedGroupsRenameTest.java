package io.mikyu.engine.upgrade;

import io.mikyu.engine.Entry;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.MikyuException;
import io.mikyu.engine.SharedGroup;
import io.mikyu.engine.internal.files.FaultyFileChannels;
import io.mikyu.engine.internal.files.PowerLossFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import static io.mikyu.engine.upgrade.Format1UpgradeTest.fetchN;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The upgrade from store format 1 renames each log queue's shared groups' folder ({@code shared} to
 * {@code shared-groups}), one queue at a time, and writes the new version last. A crash can stop it after any
 * rename: these tests make each state it can leave (a store written by this version, then put back as format 1
 * had it in part) and open it.
 */
@Timeout(60)
class SharedGroupsRenameTest {

    private static final String FORMAT_1_FOLDER = "shared";
    private static final String FOLDER = "shared-groups";
    private static final Duration LEASE = Duration.ofMillis(500);

    @TempDir
    Path data;

    /** Log queues {@code a} and {@code b} with r0-r2; in each group named, r0 acked, r1 leased under {@link #LEASE}. */
    private void writeGroups(List<String> groups) throws InterruptedException {
        try (Mikyu store = Mikyu.open(data)) {
            for (String queue : List.of("a", "b")) {
                LogQueue q = store.createLog(queue);
                for (int i = 0; i < 3; i++) {
                    q.append(Entry.of("r" + i));
                }
                for (String name : groups) {
                    SharedGroup g = q.sharedGroup(name, Format1Store.groupConfig());
                    List<SharedGroup.Delivery> ds = g.fetch(2, LEASE, Duration.ZERO);
                    assertThat(ds).hasSize(2);
                    g.ack(ds.get(0).token());
                }
            }
        }
    }

    /** What the groups of {@link #writeGroups} show after the upgrade: r0 finished, r1 back, delivered twice. */
    private static void assertGroupsKept(Mikyu store, List<String> groups) throws InterruptedException {
        for (String queue : List.of("a", "b")) {
            assertThat(store.log(queue).groups()).as("the groups of %s", queue).containsAll(groups);
            for (String name : groups) {
                SharedGroup g = store.log(queue).sharedGroup(name, Format1Store.groupConfig());
                assertThat(g.committedOffset()).as("%s:%s", queue, name).isEqualTo(1);
                List<SharedGroup.Delivery> ds = fetchN(g, 2, Duration.ofSeconds(20));
                assertThat(ds).extracting(d -> d.record().offset()).as("%s:%s", queue, name)
                        .containsExactlyInAnyOrder(1L, 2L);
                assertThat(ds).allSatisfy(d -> assertThat(d.deliveryCount())
                        .isEqualTo(d.record().offset() == 1 ? 2 : 1));
            }
        }
    }

    private void markFormat1() throws IOException {
        Files.writeString(data.resolve("FORMAT"), "mikyu-store 1\n");
    }

    private Path queue(String name) {
        return data.resolve("log").resolve(name);
    }

    @Test
    void aStoreCutOffBetweenTwoQueuesRenamesOpensWithBothQueuesGroups() throws Exception {
        writeGroups(List.of("g"));
        markFormat1();
        Files.move(queue("a").resolve(FOLDER), queue("a").resolve(FORMAT_1_FOLDER)); // b was renamed, a not yet

        try (Mikyu store = Mikyu.open(data)) {
            for (String q : List.of("a", "b")) {
                assertThat(queue(q).resolve(FORMAT_1_FOLDER)).doesNotExist();
                assertThat(queue(q).resolve(FOLDER).resolve("g")).isDirectory();
            }
            assertThat(data.resolve("FORMAT")).hasContent("mikyu-store 2");
            assertGroupsKept(store, List.of("g"));
        }
    }

    @Test
    void aStoreCutOffAfterEveryRenameButBeforeItsNewVersionOpens() throws Exception {
        writeGroups(List.of("g"));
        markFormat1();

        try (Mikyu store = Mikyu.open(data)) {
            assertThat(data.resolve("FORMAT")).hasContent("mikyu-store 2");
            assertGroupsKept(store, List.of("g"));
        }
    }

    @Test
    void aQueueWithBothFoldersHasTheOldOnesGroupsMovedOver() throws Exception {
        writeGroups(List.of("g1", "g2"));
        markFormat1();
        Path old = Files.createDirectory(queue("a").resolve(FORMAT_1_FOLDER));
        Files.move(queue("a").resolve(FOLDER).resolve("g1"), old.resolve("g1"));
        Files.createDirectories(old.resolve(".g3.creating")); // a creation that a crash cut short

        try (Mikyu store = Mikyu.open(data)) {
            assertThat(old).doesNotExist();
            assertThat(names(queue("a").resolve(FOLDER))).containsExactlyInAnyOrder("g1", "g2");
            assertThat(store.log("a").groups()).contains("g1", "g2").doesNotContain("g3");
            assertGroupsKept(store, List.of("g1", "g2"));
        }
    }

    @Test
    void aGroupInBothFoldersIsRefusedAndLeftAsItWas() throws Exception {
        writeGroups(List.of("g"));
        markFormat1();
        Path old = Files.createDirectory(queue("a").resolve(FORMAT_1_FOLDER));
        copy(queue("a").resolve(FOLDER).resolve("g"), old.resolve("g"));

        assertThatThrownBy(() -> Mikyu.open(data)).isInstanceOf(MikyuException.class)
                .hasMessageContaining(old.resolve("g").toString())
                .hasMessageContaining(queue("a").resolve(FOLDER).resolve("g").toString());
        assertThat(data.resolve("FORMAT")).hasContent("mikyu-store 1");
        assertThat(old.resolve("g").resolve("queue.conf")).exists();

        deleteRecursively(old); // the operator keeps one of the two
        try (Mikyu store = Mikyu.open(data)) {
            assertGroupsKept(store, List.of("g"));
        }
    }

    @Test
    void eachRenameIsDurableBeforeTheNewVersionIsWritten() throws Exception {
        writeGroups(List.of("g"));
        markFormat1();
        for (String q : List.of("a", "b")) {
            Files.move(queue(q).resolve(FOLDER), queue(q).resolve(FORMAT_1_FOLDER));
        }
        Path root = data.toAbsolutePath().normalize();
        try (FaultyFileChannels faults = FaultyFileChannels.install(data);
             Mikyu store = Mikyu.open(data)) {
            List<Path> forced = faults.forced();
            int format = -1;
            for (int i = 0; i < forced.size() && format < 0; i++) {
                if (forced.get(i).getFileName().toString().contains("FORMAT")) {
                    format = i;
                }
            }
            assertThat(format).as("FORMAT written, in %s", forced).isNotNegative();
            for (String q : List.of("a", "b")) {
                Path queueDir = root.resolve("log").resolve(q);
                assertThat(forced.subList(0, format)).as("log/%s fsynced before FORMAT, in %s", q, forced)
                        .contains(queueDir);
            }
            assertThat(store.log("a").groups()).contains("g");
        }
    }

    /**
     * The power goes before the n-th write or fsync of the opening store, for every n from the first until the open
     * finishes first: what the disk kept opens, upgraded, with every group as it was.
     */
    @Test
    void aPowerLossAtAnyPointOfTheUpgradeLeavesAStoreThatOpensUpgraded(@TempDir Path cycles) throws Exception {
        writeGroups(List.of("g"));
        markFormat1();
        for (String q : List.of("a", "b")) {
            Files.move(queue(q).resolve(FOLDER), queue(q).resolve(FORMAT_1_FOLDER));
        }
        boolean openFinished = false;
        int halfRenamed = 0;
        for (int n = 1; !openFinished; n++) {
            assertThat(n).as("cut points tried").isLessThan(200);
            Path cycle = Files.createDirectory(cycles.resolve("cut-" + n));
            Path store = cycle.resolve("store");
            copy(data, store);
            try (PowerLossFileSystem disk = PowerLossFileSystem.install(store, cycle.resolve("durable"))) {
                disk.cutAtEvent(n);
                Mikyu opened = null;
                try {
                    opened = Mikyu.open(store);
                    openFinished = !disk.isCut();
                } catch (RuntimeException cutOff) {
                    assertThat(disk.isCut()).as("cut %d: the open failed only for the power loss: %s", n, cutOff)
                            .isTrue();
                }
                disk.cut();
                if (opened != null) {
                    try {
                        opened.close();
                    } catch (RuntimeException expectedOnADeadDisk) {
                        // nothing it writes now reaches the disk
                    }
                }
                disk.materialize(cycle.resolve("after"));
            }
            Path after = cycle.resolve("after");
            String formatAfterCut = Files.readString(after.resolve("FORMAT"));
            if (Files.isDirectory(after.resolve("log/a").resolve(FOLDER))
                    != Files.isDirectory(after.resolve("log/b").resolve(FOLDER))) {
                halfRenamed++;
            }
            try (Mikyu reopened = Mikyu.open(after)) {
                assertThat(after.resolve("FORMAT")).as("cut %d (FORMAT was %s)", n, formatAfterCut.trim())
                        .hasContent("mikyu-store 2");
                for (String q : List.of("a", "b")) {
                    assertThat(after.resolve("log").resolve(q).resolve(FORMAT_1_FOLDER)).as("cut %d", n)
                            .doesNotExist();
                }
                assertGroupsKept(reopened, List.of("g"));
            }
            deleteRecursively(cycle);
        }
        assertThat(halfRenamed).as("cuts that left one queue renamed and the other not").isPositive();
    }

    @Test
    void anUpgradeStoppedByAFailedFsyncIsFinishedByTheNextOpen() throws Exception {
        writeGroups(List.of("g"));
        markFormat1();
        for (String q : List.of("a", "b")) {
            Files.move(queue(q).resolve(FOLDER), queue(q).resolve(FORMAT_1_FOLDER));
        }
        Path queueB = data.toAbsolutePath().normalize().resolve("log").resolve("b");
        try (FaultyFileChannels faults = FaultyFileChannels.install(data)) {
            faults.failForces(queueB::equals);
            assertThatThrownBy(() -> Mikyu.open(data)).hasMessageContaining(queueB.toString());
            assertThat(faults.failedForces()).isEqualTo(1);
        }
        assertThat(data.resolve("FORMAT")).as("not marked upgraded").hasContent("mikyu-store 1");

        try (Mikyu store = Mikyu.open(data)) {
            assertThat(data.resolve("FORMAT")).hasContent("mikyu-store 2");
            for (String q : List.of("a", "b")) {
                assertThat(queue(q).resolve(FORMAT_1_FOLDER)).doesNotExist();
            }
            assertGroupsKept(store, List.of("g"));
        }
    }

    @Test
    void aFormatNewerThanThisVersionIsRefused() throws Exception {
        writeGroups(List.of("g"));
        Files.writeString(data.resolve("FORMAT"), "mikyu-store 3\n");
        assertThatThrownBy(() -> Mikyu.open(data)).isInstanceOf(MikyuException.class)
                .hasMessageContaining("mikyu-store 3").hasMessageContaining("newer");
        assertThat(queue("a").resolve(FOLDER).resolve("g")).isDirectory();
    }

    @Test
    void aNewStoreIsWrittenInTheCurrentFormat() {
        try (Mikyu store = Mikyu.open(data)) {
            store.createLog("a").sharedGroup("g", Format1Store.groupConfig());
            assertThat(data.resolve("FORMAT")).hasContent("mikyu-store 2");
            assertThat(queue("a").resolve(FOLDER).resolve("g").resolve("queue.conf")).exists();
            assertThat(queue("a").resolve(FORMAT_1_FOLDER)).doesNotExist();
        }
    }

    private static List<String> names(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).toList();
        }
    }

    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                Files.copy(p, to.resolve(from.relativize(p).toString()), StandardCopyOption.COPY_ATTRIBUTES);
            }
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
