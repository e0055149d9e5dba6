package io.mikyu.tck;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;

/**
 * The first error lines the TCK logged during the current test, so that {@link TckFailureCause} can put them in the
 * failure. The TCK's tests mostly catch the provider's exception, log it ({@code System.Logger} at ERROR and
 * {@code TestUtil.printStackTrace}) and throw a new exception that names only the test. Tests run one at a time
 * (the TCK is not written for parallel runs), so one buffer, cleared before each test, is enough.
 */
final class TckLog {

    private static final int KEPT = 3;
    private static final List<String> errors = new ArrayList<>();

    private TckLog() {
    }

    static synchronized void clear() {
        errors.clear();
    }

    /** Keeps the first line of {@code text}, if fewer than {@value #KEPT} distinct lines are kept so far. */
    static synchronized void error(String text) {
        if (text == null || errors.size() >= KEPT) {
            return;
        }
        String line = text.strip().lines().findFirst().orElse("").strip();
        if (!line.isEmpty() && !errors.contains(line)) {
            errors.add(line);
        }
    }

    static synchronized List<String> errors() {
        return List.copyOf(errors);
    }

    /** A {@code java.util.logging} handler (where {@code System.Logger} ends) that keeps SEVERE messages. */
    static final class SevereHandler extends Handler {
        SevereHandler() {
            setLevel(Level.SEVERE);
        }

        @Override
        public void publish(LogRecord record) {
            if (isLoggable(record)) {
                String message = record.getMessage();
                error(record.getThrown() == null ? message : message + " " + record.getThrown());
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }

    /** Passes {@code TestUtil}'s lines on to {@code System.err}, keeping those it marks as errors. */
    static final class ErrorTee extends java.io.Writer {
        private static final String ERROR = "ERROR: ";
        private final StringBuilder pending = new StringBuilder();

        @Override
        public synchronized void write(char[] buf, int off, int len) {
            pending.append(buf, off, len);
        }

        @Override
        public synchronized void flush() {
            String text = pending.toString();
            pending.setLength(0);
            int at = text.indexOf(ERROR);
            if (at >= 0) {
                error(text.substring(at + ERROR.length()));
            }
            System.err.print(text);
            System.err.flush();
        }

        @Override
        public void close() {
            flush();
        }
    }
}
