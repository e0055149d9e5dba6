package io.mikyu.engine.internal.task;

import io.mikyu.engine.Headers;
import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.StaleLeaseException;
import io.mikyu.engine.TaskCounts;
import io.mikyu.engine.TaskFilter;
import io.mikyu.engine.TaskQueueConfig;
import io.mikyu.engine.TimeSource;
import io.mikyu.engine.internal.format.TaskRecordDescriptor;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * Which tasks of a queue are ready, scheduled or leased, and the rules that move them. Pure state: no I/O, so the
 * caller decides what to write before or after each transition. Every method must be called holding the queue's
 * lock. Times are the steady clock's epoch millis ({@link TimeSource#steadyMillis()}) passed in, which keeps the
 * rules testable, replay deterministic, and a step of the host's clock without effect. A task's deliver-at and
 * expiry are wall times: they are converted to steady time once, when the task enters this state (enqueue or
 * replay), by the two clocks' difference at that moment.
 *
 * <p>Lease expiry is derived, not recorded: a lease that ended at T makes the task visible at
 * {@code T + backoff(attempts)}, or sends it to the dead-letter queue after {@code maxAttempts}. Replaying the
 * log and then applying the current time reaches the same state the live queue would have.
 */
final class TaskQueueState {

    private final String queue;
    private final TaskQueueConfig config;
    /** Read only to convert a task's wall-clock deliver-at and expiry to steady time as it enters. */
    private final TimeSource clock;
    private final java.util.HashMap<Long, TaskEntry> tasks = new java.util.HashMap<>();
    /**
     * The unfinished ids in order, kept only where the lowest one is asked for on every call (a shared group's
     * window and committed offset); a task queue asks once per housekeeping run and scans instead, sparing every
     * enqueue and ack an O(log n) tree update over a backlog that may hold millions.
     */
    private final java.util.TreeSet<Long> sortedIds;
    private final ReadyTasks ready = new ReadyTasks();
    private final TreeSet<TaskEntry> scheduled = new TreeSet<>(TaskEntry.BY_VISIBLE_AT);
    private final LeasedTasks leased = new LeasedTasks();
    /**
     * When the next scheduled task or lease end is due, or earlier, never later: the store's timer reads it without
     * the ledger's lock to skip a queue with nothing due (with 20,000 queues, locking each one ten times a second
     * was a quarter of a core on an idle store). Lowered as entries come, recomputed when the clock is applied.
     */
    private volatile long nextChangeAt = Long.MAX_VALUE;
    /** Told when {@link #nextChangeAt} goes from none to some time: the store's timer then visits this queue. */
    private volatile Runnable onArmed;
    private final FilterIndex filters = new FilterIndex();
    /** Message groups: who owns which group, and what a member may take (JMSXGroupID). */
    final MessageGroups groups = new MessageGroups();
    /** The large bodies unfinished tasks name: what keeps them from the store's sweep. */
    final io.mikyu.engine.internal.body.BodyReferences bodies = new io.mikyu.engine.internal.body.BodyReferences();
    private long lastLease;
    private long expired;
    private final long hotPayloadBudget;
    private long hotPayloadBytes;
    /** Given back what a transient task took as it leaves; {@code null}: not counted (TransientMemory). */
    io.mikyu.engine.internal.memory.TransientMemory.Account transientMemory;

    /** Which ready tasks are held and which stay in the log; {@code null}: all held (no window, a shared group). */
    private final ReadyWindow window;

    TaskQueueState(String queue, TaskQueueConfig config, TimeSource clock, long hotPayloadBudget,
                   boolean keepIdsSorted) {
        this(queue, config, clock, hotPayloadBudget, keepIdsSorted, 0, null);
    }

    /** {@code window} > 0 with a {@code log} to read back from: ready tasks past the window stay in the log. */
    TaskQueueState(String queue, TaskQueueConfig config, TimeSource clock, long hotPayloadBudget,
                   boolean keepIdsSorted, int window, ColdBacklog.LogReader log) {
        this.window = window > 0 && log != null ? new ReadyWindow(window, new ColdBacklog(queue, log), clock,
                new WindowHolder()) : null;
        this.clock = clock;
        this.sortedIds = keepIdsSorted ? new java.util.TreeSet<>() : null;
        this.queue = queue;
        this.config = config;
        this.hotPayloadBudget = hotPayloadBudget;
    }

    /**
     * Keeps the payload of a task enqueued by this process in memory while the budget allows, so a consumer that
     * keeps up never reads it back from the log.
     */
    void keepPayload(TaskEntry e, byte[] payload) {
        if (payload != null && (e.isTransient() || hotPayloadBytes + payload.length <= hotPayloadBudget)) {
            e.payload = payload;
            hotPayloadBytes += payload.length;
        }
    }

    /**
     * What turns a wall time into steady time now: read afresh (not from a caller's {@code now}, which a long
     * replay leaves behind), so a delay is neither shortened nor lengthened by the time the conversion waited.
     */
    private long wallToSteady() {
        return clock.steadyMillis() - clock.wallMillis();
    }

    private void forgetPayload(TaskEntry e) {
        if (e.payload != null) {
            hotPayloadBytes -= e.payload.length;
            e.payload = null;
        }
    }

    // ------------------------------------------------------------------------------------------------ replay

    /** A task record, during replay or after an enqueue was written. */
    /** Returns the new entry, or {@code null} if it expired on arrival. */
    TaskEntry enqueued(long id, TaskRecordDescriptor.Meta meta, long enqueuedAt, Headers headers, long now) {
        if (window != null && window.goesCold(id, meta, enqueuedAt)) {
            return null;
        }
        TaskEntry e = new TaskEntry(id, meta.priority(), enqueuedAt, meta.deliverAt(), meta.expiresAt(), headers,
                wallToSteady());
        track(id, e);
        place(e, now);
        return tasks.get(id) == e ? e : null;
    }

    private long nextTransientId = TaskEntry.TRANSIENT_BASE;

    /** A transient task: in memory only, its payload always kept. Returns null if it expired on arrival. */
    TaskEntry enqueuedTransient(TaskRecordDescriptor.Meta meta, long enqueuedAt, Headers headers, byte[] payload,
                                long now) {
        long id = nextTransientId++;
        TaskEntry e = new TaskEntry(id, meta.priority(), enqueuedAt, meta.deliverAt(), meta.expiresAt(), headers,
                wallToSteady());
        keepPayload(e, payload);
        track(id, e);
        place(e, now);
        if (tasks.get(id) != e) {
            forgetPayload(e);
            return null;
        }
        return e;
    }

    /**
     * A state record during replay: the state before {@code now} is applied afterwards by {@link #promote}.
     *
     * <p>An EXTEND or NACK names the lease it was decided under, and is applied only to that lease: such a record is
     * decided under the lock and written outside it, so when its lease ends (or is nacked) meanwhile and the task
     * is leased again, it can reach the log after the newer lease's record. The live queue refused it then (the
     * lease no longer held), so replay does too; applied, a give-back's lowered attempt count would undercut the
     * count the newer lease handed out, and free a task another consumer holds.
     */
    void replay(TaskRecordDescriptor.State s) {
        TaskEntry e = tasks.get(s.taskId());
        if (e == null && window != null) {
            e = window.warm(s.taskId()); // went cold in this replay, though live it was held and leased
        }
        if (s.lease() > lastLease) {
            lastLease = s.lease();
        }
        if (e == null) {
            return; // finished earlier, or its task record was lost to a quarantined segment
        }
        switch (s.op()) {
            case TaskRecordDescriptor.LEASE -> {
                unplace(e);
                e.attempts = s.attempts();
                e.lease = s.lease();
                e.leaseUntil = s.time();
                e.state = TaskEntry.State.LEASED;
                addLeased(e);
            }
            case TaskRecordDescriptor.EXTEND -> {
                if (e.lease == s.lease() && e.state == TaskEntry.State.LEASED) {
                    extend(e, s.time());
                }
            }
            case TaskRecordDescriptor.NACK -> {
                if (e.lease == s.lease()) {
                    unplace(e);
                    e.attempts = s.attempts(); // a returned-undelivered nack lowers it
                    e.visibleAt = s.time();
                    e.lastReason = s.reason();
                    e.state = TaskEntry.State.SCHEDULED;
                    addScheduled(e);
                }
            }
            case TaskRecordDescriptor.ACK, TaskRecordDescriptor.DEAD -> {
                unplace(e);
                untrack(e.id);
            }
            default -> throw new IllegalStateException("unknown task state op " + s.op() + " in " + queue);
        }
    }

    // ----------------------------------------------------------------------------------------------- moving

    /**
     * Applies the clock: scheduled tasks that are due become ready, expired tasks are dropped, ended leases
     * return their task (or, past {@code maxAttempts}, mark it for the dead-letter queue: returned, LEAVING).
     */
    List<TaskEntry> promote(long now) {
        List<TaskEntry> dead = null;
        while (!leased.isEmpty() && leased.first().leaseUntil <= now) {
            TaskEntry e = leased.pollFirst();
            if (e.attempts >= config.maxAttempts()) {
                e.state = TaskEntry.State.LEAVING;
                e.lastReason = "lease expired " + e.attempts + " times";
                if (dead == null) {
                    dead = new ArrayList<>();
                }
                dead.add(e);
            } else {
                e.visibleAt = e.leaseUntil + config.backoff(e.attempts).toMillis();
                e.lastReason = "lease expired";
                e.leaseRanOut = true;
                e.state = TaskEntry.State.SCHEDULED;
                addScheduled(e);
            }
        }
        while (!scheduled.isEmpty() && scheduled.first().visibleAt <= now) {
            TaskEntry e = scheduled.pollFirst();
            if (e.isExpired(now)) {
                drop(e);
            } else {
                e.state = TaskEntry.State.READY;
                ready.add(e);
                filters.becameReady(e);
            }
        }
        refreshNextChange(now);
        return dead == null ? List.of() : dead;
    }

    /** Under the lock: sets {@link #nextChangeAt} from what is scheduled and leased now. */
    void refreshNextChange(long now) {
        long wait = millisUntilNextChange(now);
        setNextChange(wait == Long.MAX_VALUE ? Long.MAX_VALUE : now + wait);
    }

    /** Runs {@code armed} whenever this queue starts waiting for a time, and now if it already does. */
    void onArmed(Runnable armed) {
        onArmed = armed;
        if (nextChangeAt != Long.MAX_VALUE) {
            armed.run();
        }
    }

    /** Written before {@link #onArmed} runs, so a timer that looks after its removal sees it (see DueLedgers). */
    private void setNextChange(long at) {
        long before = nextChangeAt;
        nextChangeAt = at;
        Runnable armed = onArmed;
        if (before == Long.MAX_VALUE && at != Long.MAX_VALUE && armed != null) {
            armed.run();
        }
    }

    /** The steady time by which something may be due (see {@link #nextChangeAt}); read without the lock. */
    long nextChangeAt() {
        return nextChangeAt;
    }

    private void addScheduled(TaskEntry e) {
        scheduled.add(e);
        if (e.visibleAt < nextChangeAt) {
            setNextChange(e.visibleAt);
        }
    }

    private void addLeased(TaskEntry e) {
        leased.add(e);
        if (e.leaseUntil < nextChangeAt) {
            setNextChange(e.leaseUntil);
        }
    }

    /** Millis until the next scheduled task or lease end, or {@code Long.MAX_VALUE}. */
    long millisUntilNextChange(long now) {
        long next = Long.MAX_VALUE;
        if (!scheduled.isEmpty()) {
            next = Math.min(next, scheduled.first().visibleAt);
        }
        if (!leased.isEmpty()) {
            next = Math.min(next, leased.first().leaseUntil);
        }
        return next == Long.MAX_VALUE ? next : Math.max(0, next - now);
    }

    /** Leases up to {@code max} ready tasks (matching {@code filter}) until {@code leaseUntil}. */
    List<TaskEntry> lease(int max, TaskFilter filter, long now, long leaseUntil) {
        io.mikyu.engine.GroupMember member = filter instanceof io.mikyu.engine.GroupMember.Take t ? t.member() : null;
        filter = io.mikyu.engine.GroupMember.unwrap(filter);
        List<TaskEntry> out = new ArrayList<>(Math.min(max, 64));
        TreeSet<TaskEntry> matching = filter == null ? null : filters.matches(filter, ready, now);
        while (out.size() < max) {
            if (window != null && matching == null && window.coldFirst()) {
                break; // the next task in delivery order is cold: the caller reads it back (without the lock)
            } else if (window != null && matching != null) {
                window.warmFirstMatch(filter, matching, filters.coldTested(filter), now);
            }
            TaskEntry e = matching == null ? ready.first() : matching.isEmpty() ? null : matching.first();
            if (e == null) {
                break;
            }
            if (member != null && groups.inUse()) {
                leaseGrouped(member, max - out.size(), matching, now, leaseUntil, out);
                break;
            }
            leaseOne(e, now, leaseUntil, out);
        }
        return out;
    }

    /** Leases the ready task {@code e} into {@code out}, or drops it if it expired. */
    private void leaseOne(TaskEntry e, long now, long leaseUntil, List<TaskEntry> out) {
        ready.remove(e);
        filters.leftReady(e);
        if (e.isExpired(now)) {
            drop(e);
            return;
        }
        e.attempts++;
        e.lease = ++lastLease;
        e.leaseUntil = leaseUntil;
        e.state = TaskEntry.State.LEASED;
        addLeased(e);
        out.add(e);
    }

    /**
     * A member's take while the queue has message groups: what {@link MessageGroups#pick} allows, in delivery
     * order. If the held ready tasks hold nothing for it (all of other members' groups), cold tasks are read back
     * past the window, up to twice its size, so one busy group does not starve the others.
     */
    private void leaseGrouped(io.mikyu.engine.GroupMember member, int max, TreeSet<TaskEntry> matching, long now,
                              long leaseUntil, List<TaskEntry> out) {
        while (true) {
            List<TaskEntry> picked = groups.pick(member, matching == null ? ready : matching, max, now);
            if (picked.isEmpty() && window != null && window.admitPastWindow(now)) {
                continue;
            }
            for (TaskEntry e : picked) {
                leaseOne(e, now, leaseUntil, out);
            }
            return;
        }
    }

    /**
     * Whether an unfiltered take found nothing because the next task in delivery order is cold: it waits for a
     * top-up ({@link #planTopUp}) and takes again.
     */
    boolean coldFirst() {
        return window != null && window.coldFirst();
    }

    /** See {@link ReadyWindow#planTopUp}: {@code null} if the window wants none, or one is in flight. */
    ReadyWindow.TopUp planTopUp() {
        return window == null ? null : window.planTopUp();
    }

    boolean topUpInFlight() {
        return window != null && window.topUpInFlight();
    }

    /** Without the lock: see {@link ReadyWindow#read}. */
    void readTopUp(ReadyWindow.TopUp topUp) {
        window.read(topUp);
    }

    /** Under the lock again: see {@link ReadyWindow#finish}. */
    void finishTopUp(ReadyWindow.TopUp topUp, long now) {
        window.finish(topUp, now);
    }

    /** Undoes {@link #lease} for entries whose lease record could not be written. */
    void unlease(List<TaskEntry> entries, long now) {
        for (TaskEntry e : entries) {
            if (e.state == TaskEntry.State.LEASED && tasks.get(e.id) == e) {
                leased.remove(e);
                e.attempts--;
                e.visibleAt = now;
                place(e, now);
            }
        }
    }

    /** The task a token names, if the token still holds; else {@link StaleLeaseException}. */
    TaskEntry holder(LeaseToken token) {
        TaskEntry e = tasks.get(token.taskId());
        if (e == null) {
            throw new StaleLeaseException("task " + token.taskId() + " of task queue '" + queue
                    + "' is not pending: it was acked, dead-lettered, purged or never existed (token " + token + ")");
        }
        if (e.heldByTransaction) {
            throw new StaleLeaseException("task " + token.taskId() + " of '" + queue + "' is held by a prepared"
                    + " transaction until it is committed or rolled back");
        }
        if (e.lease != token.lease() || e.state != TaskEntry.State.LEASED) {
            throw new StaleLeaseException("lease " + token + " on task " + token.taskId() + " of task queue '" + queue
                    + "' is stale: the lease expired and the task was handed out again (now lease " + e.lease + ")");
        }
        return e;
    }

    /** The unfinished task {@code id}, or {@code null}. */
    TaskEntry find(long id) {
        return tasks.get(id);
    }

    /** An ack is being written: the task leaves every set, so no other ack, nack or expiry can take it. */
    void beginFinish(TaskEntry e) {
        unplace(e);
        e.state = TaskEntry.State.LEAVING;
    }

    /** The ack's write failed: the task is leased again, as it was. */
    void abortFinish(TaskEntry e) {
        if (tasks.get(e.id) == e && e.state == TaskEntry.State.LEAVING) {
            e.state = TaskEntry.State.LEASED;
            addLeased(e);
        }
    }

    /** Removes a finished task (acked or dead-lettered). */
    void finish(long id) {
        TaskEntry e = untrack(id);
        if (e != null) {
            unplace(e);
            forgetPayload(e);
        }
    }

    /** Gives a held task back, visible again at {@code visibleAt}. */
    void giveBack(TaskEntry e, long visibleAt, String reason, long now) {
        unplace(e);
        e.visibleAt = visibleAt;
        e.lastReason = reason;
        e.leaseRanOut = false;
        place(e, now);
    }

    /** Gives a leased task back as never delivered: ready at once, and how its last counted lease ended kept. */
    void giveBackUndelivered(TaskEntry e, String reason, long now) {
        boolean ranOut = e.leaseRanOut;
        giveBack(e, now, reason, now);
        e.leaseRanOut = ranOut;
    }

    /** Marks a task as leaving for the dead-letter queue: no longer visible, not yet finished. */
    void leave(TaskEntry e, String reason) {
        unplace(e);
        e.lastReason = reason;
        e.state = TaskEntry.State.LEAVING;
    }

    /** A task whose move to the dead-letter queue failed: try again after {@code retryAt}. */
    void stay(TaskEntry e, long retryAt, long now) {
        if (tasks.get(e.id) == e && e.state == TaskEntry.State.LEAVING) {
            e.visibleAt = retryAt;
            place(e, now);
        }
    }

    void extend(TaskEntry e, long leaseUntil) {
        leased.remove(e);
        e.leaseUntil = leaseUntil;
        addLeased(e);
    }

    /**
     * Ready tasks in delivery order matching {@code filter}, up to {@code max}: held ones and cold ones merged (cold
     * tasks of a priority come after its held ones, whose ids are lower). Cold ones are read from the log and are
     * copies, not held.
     */
    List<TaskEntry> browse(int max, TaskFilter filter, long now) {
        List<TaskEntry> out = new ArrayList<>();
        Iterable<TaskEntry> source = filter == null ? ready : filters.matches(filter, ready, now);
        int coldLevel = ColdBacklog.LEVELS - 1; // cold tasks of priorities above this are listed
        for (TaskEntry e : source) {
            while (window != null && coldLevel > e.priority && out.size() < max) {
                window.browse(coldLevel--, max, filter, now, out);
            }
            if (out.size() >= max) {
                break;
            }
            if (!e.isExpired(now)) {
                out.add(e);
            }
        }
        while (window != null && coldLevel >= 0 && out.size() < max) {
            window.browse(coldLevel--, max, filter, now, out);
        }
        return out;
    }

    /** What {@link #purge} removed: the ids of held tasks, and the cold backlog (null: none) to walk for the rest. */
    record Purged(List<Long> ids, ColdBacklog cold) {
        long count() {
            return ids.size() + (cold == null ? 0 : cold.total());
        }
    }

    /** Every ready and scheduled task, removed from the queue. */
    Purged purge() {
        ColdBacklog purgedCold = window == null || window.cold().isEmpty() ? null : window.cold().drain();
        return new Purged(purgeHeld(), purgedCold);
    }

    /** Ids of every held ready and scheduled task, removed from the queue. */
    private List<Long> purgeHeld() {
        List<Long> ids = new ArrayList<>(ready.size() + scheduled.size());
        for (TaskEntry e : ready) {
            ids.add(e.id);
        }
        for (TaskEntry e : scheduled) {
            ids.add(e.id);
        }
        for (Long id : ids) {
            forgetPayload(untrack(id));
        }
        ready.clear();
        scheduled.clear();
        filters.clear();
        return ids;
    }

    TaskCounts counts() {
        return new TaskCounts(readyCount(), scheduled.size(), leased.size());
    }

    /** Tasks held in memory (any state): what the window bounds, with the leased, delayed and returned ones. */
    int heldCount() {
        return tasks.size();
    }

    /** Ready tasks in the log only. */
    long coldCount() {
        return window == null ? 0 : window.cold().total();
    }

    /** Records read back from the log for cold tasks so far. */
    long coldRecordsRead() {
        return window == null ? 0 : window.cold().recordsRead();
    }

    /** The lowest unfinished id, or {@code Long.MAX_VALUE}: log segments below it hold nothing live. */
    long lowestLiveId() {
        if (sortedIds != null) {
            return sortedIds.isEmpty() ? Long.MAX_VALUE : sortedIds.first();
        }
        long min = window == null ? Long.MAX_VALUE : window.cold().lowestId();
        for (long id : tasks.keySet()) {
            min = Math.min(min, id);
        }
        return min;
    }

    private void track(long id, TaskEntry e) {
        tasks.put(id, e);
        bodies.entered(id, e.header(io.mikyu.engine.LargeBody.ID_HEADER)); // read in place, not decoded
        groups.entered(e);
        if (sortedIds != null) {
            sortedIds.add(id);
        }
    }

    private TaskEntry untrack(long id) {
        TaskEntry e = tasks.remove(id);
        bodies.left(id);
        if (e != null) {
            groups.left(e);
        }
        if (e != null && sortedIds != null) {
            sortedIds.remove(id);
        }
        if (e != null && e.isTransient() && transientMemory != null) { // before forgetPayload: it counts the payload
            transientMemory.release(io.mikyu.engine.internal.memory.TransientMemory.footprint(e.headers(), e.payload), 1);
        }
        return e;
    }

    /** Finishes every ready item that does not match {@code filter} (a shared group's new admission filter). */
    void finishReadyNotMatching(TaskFilter filter) {
        List<TaskEntry> drop = new ArrayList<>();
        for (TaskEntry e : ready) {
            if (!FilterIndex.test(filter, e)) {
                drop.add(e);
            }
        }
        for (TaskEntry e : drop) {
            finish(e.id);
        }
    }

    /** Unfinished items: what a shared group's window holds. */
    int size() {
        return tasks.size();
    }

    long expiredCount() {
        return expired;
    }

    void dropIdleFilters(long now) {
        filters.dropIdle(now);
    }

    int readyCount() {
        return (int) Math.min(Integer.MAX_VALUE, ready.size() + coldCount());
    }

    boolean hasReady() {
        return !ready.isEmpty() || coldCount() > 0;
    }


    private void place(TaskEntry e, long now) {
        if (e.visibleAt > now) {
            e.state = TaskEntry.State.SCHEDULED;
            addScheduled(e);
        } else if (e.isExpired(now)) {
            drop(e);
        } else {
            e.state = TaskEntry.State.READY;
            ready.add(e);
            filters.becameReady(e);
        }
    }

    private void unplace(TaskEntry e) {
        switch (e.state) {
            case READY -> {
                ready.remove(e);
                filters.leftReady(e);
            }
            case SCHEDULED -> scheduled.remove(e);
            case LEASED -> leased.remove(e);
            case LEAVING -> { }
        }
    }

    private void drop(TaskEntry e) {
        untrack(e.id);
        forgetPayload(e);
        expired++;
    }

    // ------------------------------------------------------------------------------ checkpoint (LedgerCheckpoints)

    void forEachTask(java.util.function.Consumer<TaskEntry> action) {
        tasks.values().forEach(action);
    }

    long lastLease() {
        return lastLease;
    }

    void restoreLastLease(long lease) {
        lastLease = Math.max(lastLease, lease);
    }

    /** The backlog in the log only, or {@code null} if this state holds every ready task. */
    ColdBacklog coldBacklog() {
        return window == null ? null : window.cold();
    }

    /** A task as a checkpoint kept it (its state and times set), before the replay of the log's tail. */
    void restore(TaskEntry e) {
        track(e.id, e);
        switch (e.state) {
            case READY -> {
                ready.add(e);
                filters.becameReady(e);
            }
            case SCHEDULED -> addScheduled(e);
            case LEASED -> addLeased(e);
            default -> throw new IllegalStateException("a checkpoint cannot hold a task " + e.state);
        }
    }

    /** What the window moves tasks in and out of: this state's own sets, under the same lock. */
    private final class WindowHolder implements ReadyWindow.Holder {
        @Override
        public boolean hold(TaskEntry e, byte[] payload, long now) {
            track(e.id, e);
            place(e, now);
            if (tasks.get(e.id) != e) {
                return false; // expired on the way back
            }
            keepPayload(e, payload);
            return true;
        }

        @Override
        public void holdReady(TaskEntry e) {
            track(e.id, e);
            e.state = TaskEntry.State.READY;
            ready.add(e);
            filters.becameReady(e);
        }

        @Override
        public TaskEntry firstReady() {
            return ready.first();
        }

        @Override
        public int heldReady() {
            return ready.size();
        }

        @Override
        public TaskEntry find(long id) {
            return tasks.get(id);
        }
    }
}
