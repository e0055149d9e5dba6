package io.mikyu.selector;

/**
 * A selector's text is not a valid message selector. The message names the reason and, for an error in the
 * expression, its (0-based) character position. The JMS provider throws it on as an
 * {@code InvalidSelectorException} with the same message.
 */
public final class SelectorSyntaxException extends Exception {

    private static final long serialVersionUID = 1L;

    public SelectorSyntaxException(String message) {
        super(message);
    }
}
