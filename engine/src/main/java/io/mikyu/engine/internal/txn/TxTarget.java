package io.mikyu.engine.internal.txn;

/**
 * The name of a transaction participant: the key a transaction's operations are grouped by, and what transaction
 * records store (each target's scan position, a dead letter's origin). A name is {@code <kind>/<queue>} or
 * {@code <kind>/<queue>:<group>}; queue and group names hold neither {@code /} nor {@code :}.
 *
 * <p>Store format 1 called shared groups {@code shared}; records it wrote may still wait in the transaction log
 * (a prepared branch, a commit not yet applied), so that kind is read as a shared group. Only the current names are
 * written.
 */
public record TxTarget(Kind kind, String queue, String group) {

    /** The kind of participant, with the word its names start with. */
    public enum Kind {
        LOG("log"), TASK("task"), SHARED_GROUP("shared-group"), OFFSETS("offsets");

        private final String word;

        Kind(String word) {
            this.word = word;
        }

        /** Whether names of this kind carry a group after the queue. */
        boolean grouped() {
            return this == SHARED_GROUP || this == OFFSETS;
        }
    }

    /** The kind word store format 1 wrote for shared groups: read, never written. */
    private static final String FORMAT_1_SHARED_GROUP = "shared";

    public TxTarget {
        if (kind.grouped() != (group != null)) {
            throw new IllegalArgumentException(kind + " target " + (group == null ? "without" : "with") + " a group");
        }
    }

    public static String log(String queue) {
        return new TxTarget(Kind.LOG, queue, null).name();
    }

    public static String task(String queue) {
        return new TxTarget(Kind.TASK, queue, null).name();
    }

    public static String sharedGroup(String queue, String group) {
        return new TxTarget(Kind.SHARED_GROUP, queue, group).name();
    }

    public static String offsets(String queue, String group) {
        return new TxTarget(Kind.OFFSETS, queue, group).name();
    }

    /** Reads a name written by this or an earlier store format. */
    public static TxTarget parse(String name) {
        int slash = name.indexOf('/');
        if (slash <= 0) {
            throw new IllegalArgumentException("unknown transaction target " + name);
        }
        Kind kind = kindOf(name.substring(0, slash), name);
        String rest = name.substring(slash + 1);
        if (!kind.grouped()) {
            return new TxTarget(kind, rest, null);
        }
        int colon = rest.lastIndexOf(':');
        if (colon <= 0 || colon == rest.length() - 1) {
            throw new IllegalArgumentException("transaction target " + name + " names no group");
        }
        return new TxTarget(kind, rest.substring(0, colon), rest.substring(colon + 1));
    }

    /** {@code name} as this store format writes it. */
    public static String current(String name) {
        return parse(name).name();
    }

    private static Kind kindOf(String word, String name) {
        if (word.equals(FORMAT_1_SHARED_GROUP)) {
            return Kind.SHARED_GROUP;
        }
        for (Kind k : Kind.values()) {
            if (k.word.equals(word)) {
                return k;
            }
        }
        throw new IllegalArgumentException("unknown transaction target " + name);
    }

    /** The name as written. */
    public String name() {
        return kind.word + "/" + queue + (group == null ? "" : ":" + group);
    }
}
