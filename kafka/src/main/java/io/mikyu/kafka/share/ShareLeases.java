package io.mikyu.kafka.share;

import io.mikyu.engine.Entry;
import io.mikyu.engine.Headers;
import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.SharedGroup;
import io.mikyu.engine.StaleLeaseException;
import io.mikyu.engine.StoreClosedException;
import io.mikyu.engine.TaskQueue;
import io.mikyu.kafka.admin.Cluster;
import io.mikyu.kafka.delay.DelayedTasks;
import io.mikyu.kafka.record.RecordMapping;

import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.KafkaException;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Leases on the records of one topic, held through a share group (KIP-932): what task queues and shared groups both
 * are on Kafka. A fetch acquires records under the group's acquisition lock (the lease); an ack is {@code ACCEPT}, a
 * nack {@code RELEASE} (ready again at once, its delivery count raised), an extension {@code RENEW}, each committed
 * before the call returns. After {@code maxAttempts} deliveries a record goes to the dead letters: a nack of the last
 * attempt, or the delivery after it (the last lease ran out), writes it there with mikyu's {@code mikyu.dlq.*}
 * headers and then accepts it (a crash between the two leaves a duplicate there, never a loss).
 *
 * <p>A Kafka share consumer may fetch again only once every record of its last fetch is acknowledged, while a mikyu
 * consumer may hold leases and fetch more; so this keeps several members and fetches with one that holds nothing.
 *
 * <p>Never acquire and forget: a member whose poll returned nothing goes on fetching in the background until it
 * acquires records, and keeps them in its buffer until its next poll, where no fetch of another member sees them;
 * so may one whose poll returned records ({@link ShareMember#armed()}, known by a share fetch answered since). A
 * sweep every {@link #SWEEP_EVERY}, scheduled only while a member is armed (or was just polled and may be), or strays
 * wait, or an idle member may be retired ({@link ShareMembers}; a handle whose members hold leases, or are quiet
 * or parked, below, costs the sweeper nothing), collects them
 * from the idle members (a poll that does not wait), and so does a fetch after each poll of its own member that
 * found nothing; the next fetch of this handle gets them before
 * anything else, with the lease that is left of their lock (counted from the poll that started the fetch that
 * acquired them, at the earliest; one that waited a whole lock is given back, not handed out). Strays no fetch took
 * within half their lock are released, and the delivery Kafka counted for them is not shown: their next delivery in
 * this JVM shows the count it would have had ({@link DeliveryCounts#notShown}); their member is parked: the sweep
 * no longer polls it, since each poll would start a fetch that acquires them again (a fetch still does).
 *
 * <p>A copy acquired before its share partition's leader moved is not the member's any more: the new leader
 * starts from the persisted state, without the old one's acquisitions, and delivers the record again. A record
 * that waited unhanded {@link #RECHECK_AFTER} or more, or whose member had an acknowledgement refused since its
 * last poll, is therefore renewed before it is handed out, and dropped if the renewal is refused ({@link #confirm}).
 *
 * <p>A fetch that does not wait (JMS {@code receiveNoWait}) is honest about what the queue holds: it answers
 * "nothing" only after the cluster has answered a share fetch of its member made since it began, waiting for that
 * at most {@link #FIRST_ANSWER_WAIT} for a member that has not joined the group yet, else {@link #ANSWER_WAIT}.
 */
public final class ShareLeases implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(ShareLeases.class.getName());

    /** A record handed out under a lease. */
    public record Acquired(ConsumerRecord<byte[], byte[]> record, Headers headers, LeaseToken token, int attempt,
                           long leaseExpiresAt, long expiresAt) {
        public byte[] payload() {
            return record.value() == null ? new byte[0] : record.value();
        }
    }

    /**
     * Writes a record again to be delivered later (a task queue's nack with a delay, {@link
     * io.mikyu.kafka.delay.DelayedTasks}); {@code attempts}: its deliveries so far.
     */
    public interface Later {
        /** The delay of a nack without one: the queue's backoff after the {@code attempt}-th delivery. */
        Duration backoff(int attempt);

        void write(ConsumerRecord<byte[], byte[]> record, int attempts, long deliverAt);
    }

    private record Held(ShareMember member, ConsumerRecord<byte[], byte[]> record, int attempt, long expiresAt) {
    }

    /** A record a member acquired with no fetch waiting for it any more, kept for the next fetch. */
    private record Stray(ShareMember member, ConsumerRecord<byte[], byte[]> record, long acquiredAt) {
    }

    /** How often the strays of armed members are collected, and old ones released, while there may be some. */
    static final Duration SWEEP_EVERY = Duration.ofMillis(100);
    /**
     * How long a fetch that found nothing waits for its member's first share fetch to be answered: the member's join
     * of the group (seen to take more than 10 s on a loaded machine) and one fetch.
     */
    static final Duration FIRST_ANSWER_WAIT = Duration.ofSeconds(20);
    /** How long a fetch that found nothing waits for a share fetch of a member that has joined to be answered. */
    static final Duration ANSWER_WAIT = Duration.ofSeconds(3);
    /** The poll step while a fetch waits for such an answer. */
    private static final Duration ANSWER_STEP = Duration.ofMillis(20);
    /** Runs the handles' sweeps: one daemon thread, each sweep a few polls that do not wait. */
    private static final ScheduledExecutorService SWEEPER = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "mikyu-kafka-share-sweep");
        t.setDaemon(true);
        return t;
    });

    /**
     * How long a record may wait unhanded after its acquisition (in a member's buffer or among the strays) before it
     * is renewed ({@code RENEW}) to be handed out, and dropped if Kafka refuses: a share-partition leader keeps
     * acquisitions in memory only, so a copy acquired before the leader moved can outlive the new leader's delivery
     * of the record to another process and that process's ack (KafkaStaleCopyTest). The renewal is one round trip
     * to the leader for all the member holds; records handed out sooner than this are handed out as Kafka's own
     * consumer returns them, and a leader move, another consumer's fetch from the new leader and its ack all within
     * it are what the check does not see (docs/kafka.md).
     */
    static final Duration RECHECK_AFTER = Duration.ofMillis(250);

    private static final Duration FETCH_STEP = Duration.ofMillis(500);
    /**
     * The fewest records a member acquires per share fetch (its {@code max.poll.records}), whatever the fetch that
     * made it asked; what a fetch did not ask for becomes a stray, taken first by the next fetch. A member's limit is
     * fixed when it is made, and the JMS provider's first fetch asks for one record and asks for more only once a
     * fetch filled what it asked: members made for it acquired one record per share fetch for ever, and each next
     * fetch waited for that one record's ack (the provider writes automatic acks within 50 ms) or made a new member
     * (a group join). A durable subscriber received some 15 messages a second where plain Kafka clients on the same
     * cluster received 100 or more (bench/kafka, docs/performance.md). 64 is the provider's default prefetch.
     */
    static final int MEMBER_BATCH = 64;
    /** The most records a member acquires per share fetch (Kafka's default {@code max.poll.records}). */
    private static final int MAX_MEMBER_BATCH = 500;
    /**
     * The longest poll of a member that has not joined the group yet: its join goes on only while it is polled, and a
     * member that joined may become idle meanwhile (ShareMembers).
     */
    private static final Duration JOIN_STEP = Duration.ofMillis(50);

    private final Cluster cluster;
    private final String group;
    private final String topic;
    private final String queue;
    private final int maxAttempts;
    private final long defaultLockMillis;
    private final Consumer<Entry> deadLetters;
    private final Later later;
    private final long idTag;
    /** Where {@link DeliveryCounts} keeps this group's counts: the cluster, the group, the topic. */
    private final String countScope;
    private final ShareMembers members;
    private final Map<LeaseToken, Held> held = new ConcurrentHashMap<>();
    private final AtomicLong leases = new AtomicLong();
    /** Records acquired with no fetch waiting, oldest first: the next fetch takes them. */
    private final Deque<Stray> strays = new ConcurrentLinkedDeque<>();
    /** Set while a sweep is scheduled or running ({@link #armSweep}). */
    private final AtomicBoolean sweepArmed = new AtomicBoolean();
    private volatile ScheduledFuture<?> sweep;
    private volatile boolean closed;
    private volatile long startedAt;

    /**
     * @param queue       the name dead letters say they came from
     * @param deadLetters where a record goes after {@code maxAttempts}; {@code null}: nowhere (a dead-letter queue)
     */
    public ShareLeases(Cluster cluster, String group, String topic, String queue, int maxAttempts,
                       long defaultLockMillis, Consumer<Entry> deadLetters) {
        this(cluster, group, topic, queue, maxAttempts, defaultLockMillis, deadLetters, null);
    }

    /** @param later where a nack with a delay writes the record again; {@code null}: a nack returns it at once */
    public ShareLeases(Cluster cluster, String group, String topic, String queue, int maxAttempts,
                       long defaultLockMillis, Consumer<Entry> deadLetters, Later later) {
        this(cluster, group, topic, queue, maxAttempts, defaultLockMillis, deadLetters, later, 0);
    }

    /**
     * @param idTag bits set in the ids this hands out (lease tokens, dead letters' {@code mikyu.dlq.id}) over the
     *              records' offsets: a task queue's high priority band's ({@code PriorityBands.HIGH_ID_BIT})
     */
    public ShareLeases(Cluster cluster, String group, String topic, String queue, int maxAttempts,
                       long defaultLockMillis, Consumer<Entry> deadLetters, Later later, long idTag) {
        this.idTag = idTag;
        this.later = later;
        this.cluster = cluster;
        this.group = group;
        this.topic = topic;
        this.queue = queue;
        this.maxAttempts = maxAttempts;
        this.defaultLockMillis = defaultLockMillis;
        this.deadLetters = deadLetters;
        this.countScope = cluster.id() + "/" + group + "/" + topic;
        this.members = new ShareMembers(batch -> new ShareMember(cluster, group, topic, batch),
                ShareMembers.RETIRE_AFTER);
    }

    /**
     * Up to {@code max} records, waiting up to {@code wait} for the first; strays first. Before it answers nothing,
     * the cluster has answered a share fetch of its member made since it began (see the class comment).
     */
    public List<Acquired> fetch(int max, Duration wait) throws InterruptedException {
        return fetch(max, wait, true);
    }

    /**
     * As {@link #fetch(int, Duration)}; with {@code confirmEmpty} false it answers nothing as soon as the wait is
     * over, answered by the cluster or not: for a caller that polls in short steps (a task queue's priority bands)
     * and confirms an empty answer itself once at the end.
     */
    public List<Acquired> fetch(int max, Duration wait, boolean confirmEmpty) throws InterruptedException {
        if (max < 1) {
            throw new IllegalArgumentException("max must be at least 1: " + max);
        }
        long start = System.nanoTime();
        long deadline = start + wait.toNanos();
        List<Acquired> out = new ArrayList<>();
        takeStrays(max, out);
        Map<ShareMember, Long> answeredBefore = new IdentityHashMap<>();
        while (out.isEmpty()) {
            if (closed) {
                throw new StoreClosedException("'" + queue + "' is closed");
            }
            if (Thread.interrupted()) {
                throw new InterruptedException("fetch from '" + queue + "' interrupted");
            }
            ShareMember member = idleMember(max, deadline);
            answeredBefore.putIfAbsent(member, member.fetchesAnswered());
            long left = Math.max(0, deadline - System.nanoTime());
            long step = (member.joined() ? FETCH_STEP : JOIN_STEP).toNanos();
            // Whole milliseconds, rounded up: Kafka's poll waits whole milliseconds, and a wait under one would not
            // wait at all (a fetch spun through polls that returned at once until its deadline).
            Duration poll = Duration.ofMillis((Math.min(left, step) + 999_999) / 1_000_000);
            ShareMember.Polled polled = member.poll(poll);
            long acquiredFrom = polled.acquiredFrom();
            // Records that may have waited in the consumer's buffer (a member armed and left unpolled) are checked
            // as strays are.
            boolean recheck = !polled.records().isEmpty() && mayBeStale(member, acquiredFrom);
            for (ConsumerRecord<byte[], byte[]> r : polled.records()) {
                if (out.size() >= max || recheck) {
                    // Acquired beyond what this fetch asked (a member acquires up to MEMBER_BATCH): the next fetch's;
                    // or to be checked before it is handed out.
                    strays.addLast(new Stray(member, r, acquiredFrom));
                    continue;
                }
                Acquired a = handOut(member, r, acquiredFrom);
                if (a != null) {
                    out.add(a);
                }
            }
            if (member.armed() || member.watched()) {
                armSweep();
            }
            if (out.isEmpty() || recheck) {
                // What the other idle members' fetches acquired is this fetch's: else, while this fetch polled its
                // own member, it sat locked in their buffers until the lock ran out.
                collectStrays(true);
                takeStrays(max, out);
            }
            if (out.isEmpty() && System.nanoTime() - deadline >= 0) {
                long before = answeredBefore.get(member);
                long answered = member.fetchesAnswered();
                long bound = start + (before <= 0 ? FIRST_ANSWER_WAIT : ANSWER_WAIT).toNanos();
                if (confirmEmpty && answered >= 0 && answered <= before && System.nanoTime() - bound < 0) {
                    // Not answered yet: what the queue holds now is not known; wait a step more.
                    deadline = Math.min(bound, System.nanoTime() + ANSWER_STEP.toNanos());
                    continue;
                }
                // Another member's fetch may have acquired what is there.
                collectStrays(true);
                takeStrays(max, out);
                break;
            }
        }
        return out;
    }

    /**
     * Hands out strays, oldest first, up to {@code max} records in {@code out}; a stray that waited
     * {@link #RECHECK_AFTER} or more, or whose member Kafka refused something since, only once a renewal of its
     * member's records was taken ({@link #confirm}).
     */
    private void takeStrays(int max, List<Acquired> out) {
        Stray s;
        while (out.size() < max && (s = strays.pollFirst()) != null) {
            ShareMember m = s.member();
            long acquiredAt = Math.max(s.acquiredAt(), m.renewedAt());
            if (mayBeStale(m, acquiredAt)) {
                if (!confirm(m, s.record())) {
                    continue;
                }
                acquiredAt = m.renewedAt();
            }
            if (!m.holds(s.record().offset())) {
                continue; // a renewal refused meanwhile dropped it
            }
            Acquired a = handOut(m, s.record(), acquiredAt);
            if (a != null) {
                out.add(a);
            }
        }
    }

    /**
     * Whether a record {@code member} acquired no earlier than {@code acquiredAt} must be renewed before it is handed
     * out: it waited {@link #RECHECK_AFTER} or more, or Kafka refused an acknowledgement of its member since
     * ({@link ShareMember#doubted()}: the partition's leader may have moved).
     */
    private static boolean mayBeStale(ShareMember member, long acquiredAt) {
        return member.doubted() || System.currentTimeMillis() - acquiredAt >= RECHECK_AFTER.toMillis();
    }

    /**
     * Renews what {@code member} holds, {@code record} with it, so that what it hands out next is still its own at
     * the partition's leader; {@code false} if Kafka refused: the member lost all it held (a leader that moved
     * starts from the persisted state, which knows no acquisition; or a lock ended), and its strays are dropped,
     * not handed out. The group delivers them again, to this handle or another.
     */
    private boolean confirm(ShareMember member, ConsumerRecord<byte[], byte[]> record) {
        KafkaException refused;
        try {
            refused = member.renew(record);
        } catch (RuntimeException e) {
            refused = e instanceof KafkaException k ? k : new KafkaException(e);
        }
        if (refused == null) {
            LOG.log(System.Logger.Level.DEBUG, "''{0}'': renewed to hand out record {1}", queue, record.offset());
            return true;
        }
        int dropped = 1;
        for (Stray s : strays) {
            if (s.member() == member && strays.remove(s)) {
                dropped++;
            }
        }
        memberMayBeIdle();
        LOG.log(System.Logger.Level.WARNING, "''{0}'': {1} record(s) acquired earlier, from offset {2}, were dropped,"
                + " not handed out: their renewal was refused ({3})", queue, dropped, record.offset(),
                refused.getMessage());
        return false;
    }

    /**
     * Polls, without waiting, every idle member whose fetch may be running ({@code parked} too: members the sweep
     * parked), and keeps what they acquired.
     */
    private void collectStrays(boolean parked) {
        for (ShareMember m : members.all()) {
            if (closed || !(parked ? m.fetchedSincePoll() : m.armed()) || !m.claimIfIdle()) {
                continue;
            }
            ShareMember.Polled polled;
            try {
                polled = m.collect();
            } catch (RuntimeException e) {
                // Closing, or a passing fault: the member is polled again by the next fetch or sweep.
                memberMayBeIdle();
                continue;
            }
            ConsumerRecords<byte[], byte[]> got = polled.records();
            got.forEach(r -> strays.addLast(new Stray(m, r, polled.acquiredFrom())));
            if (got.isEmpty()) {
                memberMayBeIdle();
            }
            armSweep();
        }
    }

    /**
     * Schedules a sweep unless one is scheduled or running: called once a member may be fetching in the background
     * or strays wait; a sweep schedules the next one only while that is still so.
     */
    private void armSweep() {
        if (!closed && sweepArmed.compareAndSet(false, true)) {
            sweep = SWEEPER.schedule(this::sweep, SWEEP_EVERY.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /** Whether a member may be fetching in the background, or strays wait: what a sweep is for. */
    private boolean sweepNeeded() {
        if (!strays.isEmpty() || members.mayRetire()) {
            return true;
        }
        for (ShareMember m : members.all()) {
            if (m.armed() || m.watched()) {
                return true;
            }
        }
        return false;
    }

    /** Whether a sweep is scheduled or running: only while {@link #sweepNeeded} (what tests observe). */
    public boolean sweeping() {
        return sweepArmed.get();
    }

    /**
     * The sweep: collects strays, and releases those that no fetch took within half their lock, so that other
     * handles of the queue get them while they have a lease to give; their next delivery here does not count this
     * one.
     */
    private void sweep() {
        if (closed) {
            return;
        }
        try {
            sweepOnce();
        } finally {
            // Cleared before the check: a member armed meanwhile either sees the flag clear or is seen here.
            sweepArmed.set(false);
            if (sweepNeeded()) {
                armSweep();
            }
        }
    }

    private void sweepOnce() {
        try {
            collectStrays(false);
            members.retireIdle((m, got) -> got.records().forEach(r -> strays.addLast(new Stray(m, r,
                    got.acquiredFrom()))));
            long now = System.currentTimeMillis();
            for (Stray s : strays) {
                long lock = s.member().lockMillis().map(Integer::longValue).orElse(defaultLockMillis);
                if (now - Math.max(s.acquiredAt(), s.member().renewedAt()) >= lock / 2 && strays.remove(s)) {
                    DeliveryCounts.SEEN.notShown(countScope, s.record().offset());
                    s.member().acknowledge(s.record(), AcknowledgeType.RELEASE);
                    // No fetch wanted what it acquired: polled on, it would acquire them again (each time counted).
                    s.member().park();
                    memberMayBeIdle();
                }
            }
        } catch (RuntimeException e) {
            // The next sweep tries again; a sweep must not end the schedule.
        }
    }

    /** A member that holds nothing, claimed for this thread's poll ({@link ShareMembers#claim}). */
    private ShareMember idleMember(int max, long deadline) throws InterruptedException {
        forgetEndedLeases();
        ShareMember m = members.claim(Math.min(MAX_MEMBER_BATCH, Math.max(max, MEMBER_BATCH)), deadline);
        if (m == null) {
            throw new StoreClosedException("'" + queue + "' is closed");
        }
        if (startedAt == 0) {
            startedAt = System.nanoTime();
        }
        return m;
    }

    /**
     * Gives up the leases whose time has passed (measured from when the fetch returned, so after the broker's lock
     * ended): their records are back in the group already, but the member that fetched them may fetch again only
     * once it has acknowledged them, which a holder that died never does.
     */
    private void forgetEndedLeases() {
        long now = System.currentTimeMillis();
        for (Map.Entry<LeaseToken, Held> e : held.entrySet()) {
            Held h = e.getValue();
            if (h.expiresAt() < now && held.remove(e.getKey(), h)) {
                // Kafka refuses the release of a record whose lock ended; the member is free of it all the same.
                h.member().acknowledge(h.record(), AcknowledgeType.RELEASE);
                memberMayBeIdle();
            }
        }
    }

    /**
     * The lease of a record fetched at {@code acquiredAt}, or {@code null} if it is not handed out (expired, or past
     * its attempts).
     */
    private Acquired handOut(ShareMember member, ConsumerRecord<byte[], byte[]> r, long acquiredAt) {
        if (DeliveryCounts.SEEN.isDone(countScope, r.offset())) {
            // A stale copy of a record acked since it was acquired (DeliveryCounts#isDone): never handed out again.
            // The member must settle every record it fetched before it fetches again; Kafka refuses this accept
            // or, had it lost the first, takes it: the record is done either way.
            LOG.log(System.Logger.Level.WARNING, "''{0}'': a copy of record {1} acquired before it was acked was"
                    + " dropped, not delivered again", queue, r.offset());
            member.acknowledge(r, AcknowledgeType.ACCEPT);
            return null;
        }
        long lockMillis = member.lockMillis().map(Integer::longValue).orElse(defaultLockMillis);
        long leaseEnds = acquiredAt + lockMillis;
        if (leaseEnds <= System.currentTimeMillis()) {
            // It waited in the member's buffer for a whole lock, as far as this can tell: the group may have handed
            // it to another member since. Given back (refused if so) and not shown; it comes again counted right.
            DeliveryCounts.SEEN.notShown(countScope, r.offset());
            member.acknowledge(r, AcknowledgeType.RELEASE);
            return null;
        }
        // A record written again after a nack with a delay carries the deliveries it had before.
        Headers headers = RecordMapping.mikyuHeaders(r.headers());
        int counted = r.deliveryCount().map(Short::intValue).orElse(1)
                + (int) longHeader(headers, DelayedTasks.PRIOR_ATTEMPTS_HEADER, 0);
        // Never lower than a count shown before (Kafka can lose a count in a failover: DeliveryCounts).
        int attempt = DeliveryCounts.SEEN.delivered(countScope, r.offset(), counted);
        long expiresAt = longHeader(headers, SharedGroup.EXPIRES_AT_HEADER, 0);
        if (expiresAt > 0 && expiresAt <= System.currentTimeMillis()) {
            accepted(r, member.acknowledge(r, AcknowledgeType.ACCEPT));
            return null;
        }
        if (attempt > maxAttempts && deadLetters != null) {
            deadLetter(member, r, attempt - 1, "lease expired");
            return null;
        }
        LeaseToken token = new LeaseToken(idTag | r.offset(), leases.incrementAndGet());
        held.put(token, new Held(member, r, attempt, leaseEnds));
        return new Acquired(r, headers, token, attempt, leaseEnds, expiresAt);
    }

    /** A header's value as a number, or {@code otherwise}. */
    public static long longHeader(Headers headers, String name, long otherwise) {
        String value = headers.getString(name);
        if (value == null) {
            return otherwise;
        }
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            return otherwise;
        }
    }

    public void ack(LeaseToken token) {
        finish(token, AcknowledgeType.ACCEPT);
    }

    /**
     * Acks several leases with one commit per member that fetched them, instead of one round trip per record (the
     * JMS provider acks AUTO_ACKNOWLEDGE messages in batches of up to 64). Refused before anything is acked if a
     * lease is not held by this handle; if Kafka refuses some of the acknowledgements (their locks ended and the
     * records went to another member), {@link StaleLeaseException}: the others are finished.
     */
    public void ack(List<LeaseToken> tokens) {
        if (tokens.size() == 1) {
            ack(tokens.get(0));
            return;
        }
        List<Held> taken = new ArrayList<>(tokens.size());
        for (LeaseToken t : tokens) {
            Held h = held.remove(t);
            if (h == null) {
                for (int i = 0; i < taken.size(); i++) {
                    held.put(tokens.get(i), taken.get(i));
                }
                throw new StaleLeaseException("no lease " + t + " on '" + queue + "'");
            }
            taken.add(h);
        }
        Map<ShareMember, List<ConsumerRecord<byte[], byte[]>>> byMember = new IdentityHashMap<>();
        for (Held h : taken) {
            byMember.computeIfAbsent(h.member(), m -> new ArrayList<>()).add(h.record());
        }
        KafkaException refused = null;
        for (Map.Entry<ShareMember, List<ConsumerRecord<byte[], byte[]>>> e : byMember.entrySet()) {
            KafkaException r = e.getKey().acceptAll(e.getValue());
            if (r == null) {
                e.getValue().forEach(rec -> accepted(rec, null));
            }
            refused = refused == null ? r : refused;
        }
        memberMayBeIdle();
        if (refused != null) {
            throw new StaleLeaseException("some of " + tokens.size() + " leases on '" + queue + "' ended before they"
                    + " were acked: " + refused.getMessage(), refused);
        }
    }

    /** Back at once; to the dead letters after the last attempt. */
    public void nack(LeaseToken token, String reason) {
        nack(token, Duration.ZERO, reason);
    }

    /**
     * To the dead letters after the last attempt; else back at once ({@code RELEASE}) if there is no delay, or
     * written again to be delivered after {@code delay} ({@code null}: the queue's backoff) and then accepted: a
     * crash between the two gives a duplicate, its delivery count raised, never a loss.
     */
    public void nack(LeaseToken token, Duration delay, String reason) {
        Held h = held.get(token);
        if (h != null && h.attempt() >= maxAttempts && deadLetters != null) {
            held.remove(token);
            deadLetter(h.member(), h.record(), h.attempt(), reason == null ? "nacked" : reason);
            return;
        }
        if (h != null && later != null) {
            long delayMillis = (delay == null ? later.backoff(h.attempt()) : delay).toMillis();
            long now = System.currentTimeMillis();
            if (delayMillis > 0 && h.expiresAt() > now) {
                later.write(h.record(), h.attempt(), now + delayMillis);
                finish(token, AcknowledgeType.ACCEPT);
                return;
            }
        }
        finish(token, AcknowledgeType.RELEASE);
    }

    /** Back to the group; Kafka still counts the delivery. */
    public void returnUndelivered(List<LeaseToken> tokens) {
        for (LeaseToken t : tokens) {
            try {
                finish(t, AcknowledgeType.RELEASE);
            } catch (StaleLeaseException e) {
                // Its lease already ended: it is back anyway.
            }
        }
    }

    /**
     * Renews the lock by the group's lock duration; returns when it now ends. The member's other leases are renewed
     * with it (Kafka's share consumer hands renewed records back only in a poll, {@link ShareMember#renew}); their
     * holders keep the ends they were told, and this handle gives them up then.
     */
    public long extend(LeaseToken token) {
        forgetEndedLeases();
        Held h = held.get(token);
        if (h == null) {
            throw new StaleLeaseException("no lease " + token + " on '" + queue + "'");
        }
        KafkaException refused = h.member().renew(h.record());
        if (refused != null) {
            held.remove(token);
            throw new StaleLeaseException("lease " + token + " on '" + queue + "' could not be renewed: "
                    + refused.getMessage(), refused);
        }
        long leaseEnds = System.currentTimeMillis()
                + h.member().lockMillis().map(Integer::longValue).orElse(defaultLockMillis);
        held.replace(token, h, new Held(h.member(), h.record(), h.attempt(), leaseEnds));
        return leaseEnds;
    }

    /**
     * Checks that the lease is still held by this handle and its lock has not ended: what a transaction does before
     * its commit. {@link StaleLeaseException} if not. It does not renew the lock: the commit that follows takes a few
     * round trips, well inside a lock, and a lock that ends meanwhile gives a flagged duplicate (docs/kafka.md).
     */
    public void keep(LeaseToken token) {
        Held h = held.get(token);
        if (h == null || h.expiresAt() <= System.currentTimeMillis()) {
            throw new StaleLeaseException("no lease " + token + " on '" + queue + "'");
        }
    }

    /**
     * Gives the strays past {@code offset} back to the group, after the record at {@code offset} went back to it:
     * else they, acquired ahead, would be handed out before it, where the group hands out the records it holds
     * lowest offset first (a JMS queue's order from one producer to one consumer across a recover, a rollback or a
     * consumer's close). Their next delivery does not count this one ({@link DeliveryCounts#notShown}).
     */
    private void releaseStraysAfter(long offset) {
        for (Stray s : strays) {
            if (s.record().offset() > offset && strays.remove(s)) {
                DeliveryCounts.SEEN.notShown(countScope, s.record().offset());
                s.member().acknowledge(s.record(), AcknowledgeType.RELEASE);
            }
        }
    }

    /** Wakes fetches waiting for an idle member ({@link #idleMember}). */
    private void memberMayBeIdle() {
        members.mayBeIdle();
        if (members.size() > 1) {
            armSweep(); // an idle member may be retired
        }
    }

    /** Share consumers this handle has now (members of the group), retired ones still closing included. */
    public int members() {
        return members.size() + members.closing();
    }

    /** Share consumers this handle has made so far: each a group join. */
    public long membersMade() {
        return members.made();
    }

    /**
     * How long a share consumer of this handle that holds no lease and is not polled by a fetch stays (30 s unless
     * set): then a sweep closes it, all but one (ShareMembers).
     */
    public void retireIdleMembersAfter(Duration idle) {
        members.retireAfter(idle);
        armSweep();
    }

    /** Share consumers this handle has retired so far (idle ones, {@link #retireIdleMembersAfter}): each a leave. */
    public long membersRetired() {
        return members.retired();
    }

    /** When this made its first share consumer ({@link System#nanoTime()}), or 0 if it has not yet fetched. */
    public long startedAt() {
        return startedAt;
    }

    /** Leases this handle holds. */
    public int inFlight() {
        return held.size();
    }

    private void finish(LeaseToken token, AcknowledgeType type) {
        Held h = held.remove(token);
        if (h == null) {
            throw new StaleLeaseException("no lease " + token + " on '" + queue + "'");
        }
        KafkaException refused = h.member().acknowledge(h.record(), type);
        if (type == AcknowledgeType.ACCEPT) {
            accepted(h.record(), refused);
        } else {
            releaseStraysAfter(h.record().offset());
        }
        memberMayBeIdle();
        if (refused != null) {
            throw new StaleLeaseException("lease " + token + " on '" + queue + "' ended before it was "
                    + (type == AcknowledgeType.ACCEPT ? "acked" : "returned") + ": " + refused.getMessage(), refused);
        }
    }

    /** Writes the record to the dead letters, then accepts it (a crash between: a duplicate there). */
    private void deadLetter(ShareMember member, ConsumerRecord<byte[], byte[]> r, int attempts, String reason) {
        Headers.Builder headers = Headers.builder();
        RecordMapping.mikyuHeaders(r.headers()).asList().forEach(h -> headers.add(h.name(), h.value()));
        headers.add(TaskQueue.DLQ_ORIGINAL_QUEUE, queue);
        headers.add(TaskQueue.DLQ_ORIGINAL_ID, Long.toString(idTag | r.offset()));
        headers.add(TaskQueue.DLQ_ATTEMPTS, Integer.toString(attempts));
        headers.add(TaskQueue.DLQ_REASON, reason.getBytes(StandardCharsets.UTF_8));
        deadLetters.accept(new Entry(null, headers.build(), r.value() == null ? new byte[0] : r.value(),
                Entry.NO_TIMESTAMP));
        // Refused: the record went back to the group; it comes again and is dead-lettered again.
        accepted(r, member.acknowledge(r, AcknowledgeType.ACCEPT));
        memberMayBeIdle();
    }

    /** An accept Kafka took finishes the record: its delivery count need no longer be remembered. */
    private void accepted(ConsumerRecord<byte[], byte[]> r, KafkaException refused) {
        if (refused == null) {
            DeliveryCounts.SEEN.finished(countScope, r.offset());
        }
    }

    @Override
    public void close() {
        closed = true;
        ScheduledFuture<?> s = sweep;
        if (s != null) {
            s.cancel(false);
        }
        // What the members held returns to the group when they close.
        strays.clear();
        members.closeAll();
    }
}
