package io.mikyu.engine.task;

import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.GroupMember;
import io.mikyu.engine.Headers;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.support.BackgroundCall;
import io.mikyu.engine.support.SteppableTimeSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static io.mikyu.engine.task.TaskTesting.LONG_LEASE;
import static io.mikyu.engine.task.TaskTesting.fast;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Message groups: a task with a {@link GroupMember#GROUP} header goes to one member of the queue at a time, in id
 * order; a group whose task is leased or returning holds up only itself; a closing member's groups move on once
 * its leases end; sequence -1 ends a group; after a restart order is kept because returned tasks come first.
 */
@Timeout(120)
class MessageGroupsTest {

    @TempDir
    Path data;

    private final SteppableTimeSource clock = SteppableTimeSource.startingNow();

    private Mikyu open() {
        return open(32_768);
    }

    private Mikyu open(int window) {
        return Mikyu.open(data, EngineConfig.builder().timeSource(clock).taskWindow(window).build());
    }

    private static Task task(String group, int seq) {
        return Task.of(group + ":" + seq).withHeaders(Headers.of(GroupMember.GROUP, group,
                GroupMember.GROUP_SEQ, Integer.toString(seq)));
    }

    private static List<LeasedTask> take(TaskQueue q, GroupMember m, int max) throws InterruptedException {
        return q.dequeue(max, LONG_LEASE, Duration.ZERO, m.take(null));
    }

    private static String group(LeasedTask t) {
        return t.headers().getString(GroupMember.GROUP);
    }

    private static int seq(LeasedTask t) {
        return Integer.parseInt(t.headers().getString(GroupMember.GROUP_SEQ));
    }

    /** Enqueues {@code perGroup} tasks of each of {@code groups} groups, the groups interleaved. */
    private static void fill(TaskQueue q, int groups, int perGroup) {
        List<Task> batch = new ArrayList<>();
        for (int s = 1; s <= perGroup; s++) {
            for (int g = 0; g < groups; g++) {
                batch.add(task("g" + g, s));
            }
            if (batch.size() >= 500) {
                q.enqueueBatch(batch);
                batch.clear();
            }
        }
        if (!batch.isEmpty()) {
            q.enqueueBatch(batch);
        }
    }

    @Test
    void fourMembersEachGetWholeGroupsInOrderAndTheGroupsSpreadEvenly() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            int groups = 200;
            int perGroup = 10;
            fill(q, groups, perGroup);
            q.enqueue(Task.of("no group"));
            List<GroupMember> members = List.of(new GroupMember("a"), new GroupMember("b"), new GroupMember("c"),
                    new GroupMember("d"));
            Map<String, GroupMember> ownerSeen = new ConcurrentHashMap<>();
            Map<String, List<Integer>> order = new ConcurrentHashMap<>();
            List<String> ungrouped = new CopyOnWriteArrayList<>();
            ExecutorService pool = Executors.newFixedThreadPool(4);
            try {
                List<Future<?>> running = new ArrayList<>();
                for (GroupMember m : members) {
                    running.add(pool.submit(() -> {
                        while (true) {
                            List<LeasedTask> got = q.dequeue(7, LONG_LEASE, Duration.ofSeconds(3), m.take(null));
                            if (got.isEmpty()) {
                                return null;
                            }
                            for (LeasedTask t : got) {
                                String g = group(t);
                                if (g == null) {
                                    ungrouped.add(t.payloadAsString());
                                } else {
                                    GroupMember before = ownerSeen.putIfAbsent(g, m);
                                    assertThat(before == null ? m : before).as("owner of %s", g).isSameAs(m);
                                    order.computeIfAbsent(g, k -> new CopyOnWriteArrayList<>()).add(seq(t));
                                }
                                q.ack(t.token());
                            }
                        }
                    }));
                }
                for (Future<?> f : running) {
                    f.get(100, TimeUnit.SECONDS);
                }
            } finally {
                pool.shutdownNow();
            }
            assertThat(ungrouped).containsExactly("no group");
            assertThat(order).hasSize(groups);
            List<Integer> expected = new ArrayList<>();
            for (int s = 1; s <= perGroup; s++) {
                expected.add(s);
            }
            order.forEach((g, seqs) -> assertThat(seqs).as("order of %s", g).isEqualTo(expected));
            Map<GroupMember, Integer> owned = new HashMap<>();
            ownerSeen.values().forEach(m -> owned.merge(m, 1, Integer::sum));
            assertThat(owned).as("groups per member").hasSize(4);
            assertThat(q.counts().ready() + q.counts().inFlight()).isZero();
        }
    }

    @Test
    void newGroupsGoToTheMemberOwningFewestOneClaimPerTakeWhileOthersAreLive() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            GroupMember a = new GroupMember("a");
            GroupMember b = new GroupMember("b");
            fill(q, 4, 3); // g0:1 g1:1 g2:1 g3:1 g0:2 ...
            // ids: g0:1 g1:1 g2:1 g3:1 g0:2 g1:2 ... in that order.
            assertThat(take(q, b, 1)).extracting(TaskTesting::text).containsExactly("g0:1");
            // a owns none, b one: a claims one group (one claim per take while b is live) and takes it all.
            assertThat(take(q, a, 100)).extracting(TaskTesting::text).containsExactly("g1:1", "g1:2", "g1:3");
            // b: the rest of its g0, and one new group (g2); g3 waits for a claim.
            assertThat(take(q, b, 100)).extracting(TaskTesting::text)
                    .containsExactly("g2:1", "g0:2", "g2:2", "g0:3", "g2:3");
            // a owns one group, b two: g3 goes to a.
            assertThat(take(q, a, 100)).extracting(TaskTesting::text).containsExactly("g3:1", "g3:2", "g3:3");
        }
    }

    @Test
    void aLeasedGroupHoldsUpOnlyItselfAndItsOwnerTakesOnInOrder() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            GroupMember a = new GroupMember("a");
            GroupMember b = new GroupMember("b");
            q.enqueue(task("A", 1));
            q.enqueue(task("A", 2));
            q.enqueue(task("B", 1));
            q.enqueue(Task.of("free"));
            q.enqueue(task("A", 3));
            q.enqueue(task("B", 2));
            LeasedTask a1 = take(q, a, 1).get(0);
            assertThat(a1.payloadAsString()).isEqualTo("A:1");
            // b skips A's tasks (a owns A and holds A:1), and is not held up behind them.
            assertThat(take(q, b, 10)).extracting(TaskTesting::text).containsExactly("B:1", "free", "B:2");
            // a takes the rest of A in order, while A:1 is still leased to it.
            assertThat(take(q, a, 10)).extracting(TaskTesting::text).containsExactly("A:2", "A:3");
        }
    }

    @Test
    void aReturnedTaskComesBackBeforeTheLaterTasksOfItsGroup() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            GroupMember a = new GroupMember("a");
            for (int s = 1; s <= 3; s++) {
                q.enqueue(task("A", s));
            }
            q.enqueue(task("B", 1));
            List<LeasedTask> got = take(q, a, 3);
            assertThat(got).extracting(TaskTesting::text).containsExactly("A:1", "A:2", "A:3");
            q.nack(got.get(0).token(), Duration.ofSeconds(1), "failed");
            q.returnUndelivered(List.of(got.get(1).token(), got.get(2).token()));
            // A:1 waits out its delay; A:2 and A:3 are ready but must not pass it. B is not held up.
            assertThat(take(q, a, 10)).extracting(TaskTesting::text).containsExactly("B:1");
            clock.advance(Duration.ofMillis(999));
            assertThat(take(q, a, 10)).isEmpty();
            clock.advance(Duration.ofMillis(1));
            List<LeasedTask> again = take(q, a, 10);
            assertThat(again).extracting(TaskTesting::text).containsExactly("A:1", "A:2", "A:3");
            assertThat(again.get(0).attempt()).isEqualTo(2);
        }
    }

    @Test
    void aClosedMembersGroupMovesOnOnlyWhenItsLeasesEnd() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            GroupMember a = new GroupMember("a");
            GroupMember b = new GroupMember("b");
            for (int s = 1; s <= 4; s++) {
                q.enqueue(task("A", s));
            }
            List<LeasedTask> held = take(q, a, 2);
            assertThat(held).extracting(TaskTesting::text).containsExactly("A:1", "A:2");
            a.close();
            assertThat(take(q, b, 10)).as("a closed but still holds A:1 and A:2").isEmpty();
            q.ack(held.get(0).token());
            assertThat(take(q, b, 10)).as("A:2 is still leased to a").isEmpty();
            q.returnUndelivered(List.of(held.get(1).token()));
            assertThat(take(q, b, 10)).extracting(TaskTesting::text).containsExactly("A:2", "A:3", "A:4");
            assertThat(take(q, a, 10)).as("a closed member claims nothing").isEmpty();
        }
    }

    @Test
    void aMemberWaitingForItsGroupIsWokenWhenTheEarlierTaskIsAcked() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            GroupMember a = new GroupMember("a");
            GroupMember b = new GroupMember("b");
            q.enqueue(task("A", 1));
            q.enqueue(task("A", 2));
            LeasedTask a1 = take(q, a, 1).get(0);
            a.close();
            try (BackgroundCall<List<LeasedTask>> waiting = BackgroundCall.start("b",
                    () -> q.dequeue(1, LONG_LEASE, Duration.ofSeconds(600), b.take(null))).awaitTimedWaiting()) {
                // Parked: A:2 is held back while A:1 is leased to the closed a.
                q.ack(a1.token());
                assertThat(waiting.get()).extracting(TaskTesting::text).containsExactly("A:2");
            }
        }
    }

    @Test
    void sequenceMinusOneEndsTheGroupOnceFinished() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            GroupMember a = new GroupMember("a");
            GroupMember b = new GroupMember("b");
            q.enqueue(task("X", 1));
            q.enqueue(task("A", 1));
            q.enqueue(task("A", -1));
            q.enqueue(task("A", 1)); // the group id used again: a new run of the group
            assertThat(take(q, b, 1)).extracting(TaskTesting::text).containsExactly("X:1");
            List<LeasedTask> run = take(q, a, 10);
            assertThat(run).extracting(TaskTesting::text).containsExactly("A:1", "A:-1", "A:1");
            q.returnUndelivered(List.of(run.get(2).token()));
            assertThat(take(q, b, 10)).as("a still owns A").isEmpty();
            q.ack(List.of(run.get(0).token(), run.get(1).token()));
            // A ended: it is free, and goes to a member owning no more groups than any other (not b, owning X).
            assertThat(take(q, b, 10)).isEmpty();
            assertThat(take(q, new GroupMember("c"), 10)).extracting(TaskTesting::text).containsExactly("A:1");
        }
    }

    @Test
    void afterARestartEveryGroupKeepsItsOrderWithABacklogPastTheWindow() throws Exception {
        int groups = 50;
        int perGroup = 20;
        Set<String> leasedBefore = new HashSet<>();
        try (Mikyu store = open(64)) {
            TaskQueue q = store.createTaskQueue("jobs", fast().withDefaultLease(Duration.ofSeconds(10)));
            fill(q, groups, perGroup);
            GroupMember m = new GroupMember("before");
            List<LeasedTask> got = q.dequeue(120, Duration.ofSeconds(10), Duration.ZERO, m.take(null));
            assertThat(got).isNotEmpty();
            for (int i = 0; i < got.size(); i++) {
                if (i % 3 == 0) {
                    q.ack(got.get(i).token()); // some finished, the rest leased when the store goes down
                } else {
                    leasedBefore.add(got.get(i).payloadAsString());
                }
            }
        }
        clock.advance(Duration.ofSeconds(11)); // the old leases ran out while the store was closed
        try (Mikyu store = open(64)) {
            TaskQueue q = store.taskQueue("jobs");
            clock.advance(Duration.ofSeconds(5)); // past every backoff
            List<GroupMember> members = List.of(new GroupMember("a"), new GroupMember("b"), new GroupMember("c"),
                    new GroupMember("d"));
            Map<String, List<Integer>> order = new HashMap<>();
            Set<String> seen = new HashSet<>();
            boolean any = true;
            while (any) {
                any = false;
                for (GroupMember m : members) {
                    List<LeasedTask> got = take(q, m, 5);
                    for (LeasedTask t : got) {
                        any = true;
                        order.computeIfAbsent(group(t), k -> new ArrayList<>()).add(seq(t));
                        seen.add(t.payloadAsString());
                        q.ack(t.token());
                    }
                }
            }
            assertThat(seen).containsAll(leasedBefore);
            order.forEach((g, seqs) -> assertThat(seqs).as("order of %s after the restart", g).isSorted());
            assertThat(q.counts().ready() + q.counts().inFlight() + q.counts().scheduled()).isZero();
        }
    }
}
