package io.mikyu.engine;

/**
 * Proof of a lease on one task: the task's id and the number of this lease. A task handed out again gets a new
 * lease number, so a late holder's token no longer matches and its ack, nack or extend is refused
 * ({@link StaleLeaseException}). The text form is {@code <taskId>-<lease>}, as the CLI prints it.
 */
public record LeaseToken(long taskId, long lease) {

    public static LeaseToken parse(String text) {
        int dash = text.indexOf('-');
        if (dash <= 0 || dash == text.length() - 1) {
            throw new IllegalArgumentException("not a lease token: '" + text + "' (expected <taskId>-<lease>)");
        }
        try {
            return new LeaseToken(Long.parseLong(text.substring(0, dash)), Long.parseLong(text.substring(dash + 1)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a lease token: '" + text + "' (expected <taskId>-<lease>)");
        }
    }

    @Override
    public String toString() {
        return taskId + "-" + lease;
    }
}
