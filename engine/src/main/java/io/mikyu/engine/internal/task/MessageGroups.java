package io.mikyu.engine.internal.task;

import io.mikyu.engine.GroupMember;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The message groups of one task queue: per group its held unfinished tasks in id order and its owner, and per
 * member how many groups it owns. Decides which ready tasks a member may take ({@link #pick}); the queue's sets
 * stay {@link TaskQueueState}'s. Guarded by the queue's lock.
 *
 * <p>Rules (see docs/architecture.md, "Message groups"): a group's tasks go to its owner only; a task is taken only
 * when every earlier held task of its group is leased by the owner (or a delayed task never delivered), so a
 * returning task blocks its group, not the queue; an unowned group is claimed with its first held task, by a member
 * owning no more groups than any other live member, at most one claim per take while others are live; an owner
 * that closed, or whose group saw its {@code -1} sequence finish, lets it go once none of its tasks is leased.
 */
final class MessageGroups {

    /** A member that took within this long counts for fairness (one that stopped taking does not hold claims up). */
    static final long LIVE_MILLIS = 1_000;

    private static final class Group {
        final String id;
        /** The group's unfinished tasks that are held (not cold), by id. */
        final TreeMap<Long, TaskEntry> held = new TreeMap<>();
        GroupMember owner;
        /** A task with sequence -1 finished: the owner lets go once its leases of the group end. */
        boolean ending;

        Group(String id) {
            this.id = id;
        }
    }

    private static final class Member {
        int owned;
        long lastTook;
        boolean listening;
    }

    private final Map<String, Group> groups = new HashMap<>();
    private final Map<GroupMember, Member> members = new IdentityHashMap<>();
    /** Wakes the queue's waiting consumers: a group's next task became takeable, or a member went away. */
    private Runnable changed = () -> { };
    /** Runs a member's close under the queue's lock. */
    private java.util.function.Consumer<Runnable> underLock = Runnable::run;

    void onChange(Runnable changed, java.util.function.Consumer<Runnable> underLock) {
        this.changed = changed;
        this.underLock = underLock;
    }

    static String groupOf(TaskEntry e) {
        return e.header(GroupMember.GROUP);
    }

    /** Whether any group is known: takes by members go through {@link #pick} only then. */
    boolean inUse() {
        return !groups.isEmpty();
    }

    int groupCount() {
        return groups.size();
    }

    /** The member owning {@code group}, or {@code null} (a test's and the metrics' view). */
    GroupMember ownerOf(String group) {
        Group g = groups.get(group);
        return g == null ? null : effectiveOwner(g);
    }

    /** A task entered the queue's held state (enqueue, replay, read back from the log). */
    void entered(TaskEntry e) {
        String id = groupOf(e);
        if (id != null) {
            groups.computeIfAbsent(id, Group::new).held.put(e.id, e);
        }
    }

    /** A task left for good (acked, dead-lettered, expired, purged). */
    void left(TaskEntry e) {
        String id = groupOf(e);
        Group g = id == null ? null : groups.get(id);
        if (g == null || g.held.remove(e.id) == null) {
            return;
        }
        if ("-1".equals(e.header(GroupMember.GROUP_SEQ))) {
            g.ending = true;
        }
        GroupMember owner = effectiveOwner(g);
        if (g.held.isEmpty() && owner == null) {
            groups.remove(g.id);
        }
        if (!g.held.isEmpty() && g.held.firstEntry().getValue().state == TaskEntry.State.READY) {
            changed.run(); // its next task may be takeable now (by its owner, or by anyone if it went free)
        }
    }

    /**
     * The ready tasks {@code m} takes now, up to {@code max}, in the order of {@code source} (the queue's ready
     * tasks, or a filter's matches, in delivery order); claims the unowned groups it takes from. The caller
     * leases them.
     */
    List<TaskEntry> pick(GroupMember m, Iterable<TaskEntry> source, int max, long now) {
        Member self = member(m, now);
        List<TaskEntry> out = new ArrayList<>(Math.min(max, 64));
        Map<Group, Long> pickedUpTo = new HashMap<>(); // per group: the last id this pick took
        int claims = 0;
        boolean othersLive = othersLive(m, now);
        for (TaskEntry e : source) {
            if (out.size() >= max) {
                break;
            }
            String id = groupOf(e);
            if (id == null) {
                out.add(e);
                continue;
            }
            Group g = groups.get(id);
            if (g == null) {
                continue; // cannot happen: every held grouped task is in its group
            }
            GroupMember owner = effectiveOwner(g);
            if (owner != null && owner != m) {
                continue;
            }
            Long after = pickedUpTo.get(g);
            if (!earlierAllowed(g, e, after, owner == m)) {
                continue;
            }
            if (owner == null) {
                if (m.isClosed() || (othersLive && (claims > 0 || self.owned > fewestOwnedByOthers(m, now)))) {
                    continue;
                }
                g.owner = m;
                g.ending = false;
                self.owned++;
                claims++;
            }
            pickedUpTo.put(g, e.id);
            out.add(e);
        }
        if (claims > 0 && othersLive) {
            changed.run(); // the fewest owned may have risen: members that held back from claiming look again
        }
        return out;
    }

    /**
     * Whether every held task of {@code g} before {@code e} lets {@code e} go now: taken in this pick (up to id
     * {@code after}), leased by the owner ({@code mine}), or delayed and never delivered yet.
     */
    private static boolean earlierAllowed(Group g, TaskEntry e, Long after, boolean mine) {
        Map<Long, TaskEntry> earlier = after == null ? g.held.headMap(e.id, false)
                : g.held.subMap(after, false, e.id, false);
        for (TaskEntry x : earlier.values()) {
            boolean leased = x.state == TaskEntry.State.LEASED || x.state == TaskEntry.State.LEAVING;
            boolean delayed = x.state == TaskEntry.State.SCHEDULED && x.attempts == 0;
            if (!(mine && leased) && !delayed) {
                return false;
            }
        }
        return true;
    }

    /** The owner, after letting the group go if its owner closed or it ended and none of its tasks is leased. */
    private GroupMember effectiveOwner(Group g) {
        GroupMember owner = g.owner;
        if (owner != null && (owner.isClosed() || g.ending) && !anyLeased(g)) {
            release(g);
            return null;
        }
        return owner;
    }

    private void release(Group g) {
        Member m = members.get(g.owner);
        if (m != null && --m.owned == 0 && g.owner.isClosed()) {
            members.remove(g.owner);
        }
        g.owner = null;
        g.ending = false;
        if (g.held.isEmpty()) {
            groups.remove(g.id);
        }
    }

    private static boolean anyLeased(Group g) {
        for (TaskEntry x : g.held.values()) {
            if (x.state == TaskEntry.State.LEASED || x.state == TaskEntry.State.LEAVING) {
                return true;
            }
        }
        return false;
    }

    private Member member(GroupMember m, long now) {
        Member self = members.get(m);
        if (self == null) {
            self = new Member();
            members.put(m, self);
        }
        self.lastTook = now;
        if (!self.listening) {
            self.listening = true;
            m.onClose(() -> underLock.accept(() -> closed(m)));
        }
        return self;
    }

    /** Under the lock: {@code m} closed; the groups it holds no lease of go free at once. */
    private void closed(GroupMember m) {
        if (!members.containsKey(m)) {
            return;
        }
        for (Group g : List.copyOf(groups.values())) {
            if (g.owner == m) {
                effectiveOwner(g);
            }
        }
        Member self = members.get(m);
        if (self != null && self.owned == 0) {
            members.remove(m);
        }
        changed.run();
    }

    private boolean othersLive(GroupMember m, long now) {
        for (Map.Entry<GroupMember, Member> x : members.entrySet()) {
            if (x.getKey() != m && live(x.getKey(), x.getValue(), now)) {
                return true;
            }
        }
        return false;
    }

    private int fewestOwnedByOthers(GroupMember m, long now) {
        int fewest = Integer.MAX_VALUE;
        for (Map.Entry<GroupMember, Member> x : members.entrySet()) {
            if (x.getKey() != m && live(x.getKey(), x.getValue(), now)) {
                fewest = Math.min(fewest, x.getValue().owned);
            }
        }
        return fewest;
    }

    private static boolean live(GroupMember key, Member m, long now) {
        return !key.isClosed() && now - m.lastTook <= LIVE_MILLIS;
    }
}
