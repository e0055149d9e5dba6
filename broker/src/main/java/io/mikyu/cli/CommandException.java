package io.mikyu.cli;

/** A command could not do what was asked; the message is the one line the user sees after {@code mikyu: error:}. */
public final class CommandException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public CommandException(String message) {
        super(message);
    }

    public CommandException(String message, Throwable cause) {
        super(message, cause);
    }
}
