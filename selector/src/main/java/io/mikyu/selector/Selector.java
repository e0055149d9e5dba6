package io.mikyu.selector;

import io.mikyu.engine.FilterExpression;
import io.mikyu.engine.TaskFilter;
import io.mikyu.engine.TaskView;
import java.util.function.Function;

/**
 * A compiled Jakarta Messaging message selector (Jakarta Messaging 3.1, §3.8.1).
 *
 * <p>{@link #compile(String)} parses the selector once into an immutable tree; evaluation then neither allocates
 * (beyond decoding a header string that a LIKE or a long IN list needs) nor uses regular expressions, and never
 * throws: values of the wrong type, NULLs and integer division by zero make (sub)expressions false or unknown, and
 * a selector matches only when it evaluates to true.
 *
 * <p>As a {@link TaskFilter} it reads the typed engine headers a JMS message is stored with (see
 * {@code jms-provider/WIRE-FORMAT.md}). {@code JMSDeliveryMode} reads as {@code 'PERSISTENT'} or
 * {@code 'NON_PERSISTENT'}; {@code JMSXDeliveryCount} and {@code JMSRedelivered}, which are not stored, are derived
 * from the task's delivery attempts as they would be if the message were delivered now.
 *
 * <p>Two selectors are equal when their normalized texts ({@link #toString()}) are: keywords upper case, literals in
 * canonical form ({@code 0x1d}, {@code 035} and {@code 29} are all {@code 29}; {@code 7E3} and {@code 7000.} are
 * {@code 7000.0}), single spaces, every compound operand parenthesized, AND/OR chains flattened, IN lists sorted and
 * deduplicated. Identifiers stay case-sensitive. Equal selectors let the engine share one filtered index.
 */
public final class Selector implements TaskFilter {

    /** The filter language of selectors sent to a broker ({@link #expression()}): the selector text as written. */
    public static final String LANGUAGE = "jms-selector";

    /** The selector of a consumer without one (a {@code null}, empty or blank selector): matches everything. */
    public static final Selector MATCH_ALL = new Selector("", "", null);

    private final String source;
    private final String normalized;
    private final Nodes.Cond root;

    private Selector(String source, String normalized, Nodes.Cond root) {
        this.source = source;
        this.normalized = normalized;
        this.root = root;
    }

    /**
     * Compiles a selector.
     *
     * @param selector the selector text; {@code null}, empty or blank means no selector ({@link #MATCH_ALL})
     * @throws SelectorSyntaxException if the selector is not valid, with the reason and the (0-based) character
     *     position of the error
     */
    public static Selector compile(String selector) throws SelectorSyntaxException {
        if (selector == null || selector.isBlank()) {
            return MATCH_ALL;
        }
        Nodes.Cond root;
        try {
            root = new Parser(selector).parse();
        } catch (Lexer.SyntaxError e) {
            throw new SelectorSyntaxException(
                    "Invalid message selector: " + e.getMessage() + " at position " + e.pos + " in \"" + selector
                            + "\"");
        }
        if (root instanceof Leaves.BoolLit lit && lit.value) {
            return MATCH_ALL;
        }
        StringBuilder sb = new StringBuilder(selector.length() + 16);
        root.render(sb);
        return new Selector(selector, sb.toString(), root);
    }

    /** Whether this selector matches every message (no selector, or the literal {@code TRUE}). */
    public boolean isMatchAll() {
        return root == null;
    }

    /** The text this selector was compiled from ({@code ""} for {@link #MATCH_ALL}). */
    public String source() {
        return source;
    }

    /**
     * The selector as text for a broker ({@code jms-selector}, the source text), which compiles it again with
     * {@link SelectorCompiler}: equal selectors compile to equal filters there too.
     */
    @Override
    public FilterExpression expression() {
        return new FilterExpression(LANGUAGE, source);
    }

    /** Evaluates against a task's typed JMS headers. */
    @Override
    public boolean matches(TaskView task) {
        if (root == null) {
            return true;
        }
        EvalContext c = EvalContext.acquire(task);
        try {
            return root.test(c) == Nodes.TRUE;
        } catch (RuntimeException e) {
            return false; // a broken TaskView/Headers implementation; evaluation itself does not throw
        } finally {
            c.release();
        }
    }

    /**
     * Evaluates against in-memory values: {@code properties} maps a header field or property name to a
     * {@code Boolean}, {@code Byte}, {@code Short}, {@code Integer}, {@code Long}, {@code Float}, {@code Double},
     * {@code String} or {@code null} (absent). {@code JMSDeliveryMode} may be given as the {@code DeliveryMode} int
     * or as the string. Values of other classes are treated as non-null values that equal nothing; if the function
     * throws, the selector does not match.
     */
    public boolean matches(Function<String, Object> properties) {
        if (root == null) {
            return true;
        }
        EvalContext c = EvalContext.acquire(properties);
        try {
            return root.test(c) == Nodes.TRUE;
        } catch (RuntimeException e) {
            return false;
        } finally {
            c.release();
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Selector s && normalized.equals(s.normalized);
    }

    @Override
    public int hashCode() {
        return normalized.hashCode();
    }

    /** The normalized selector text ({@code ""} for {@link #MATCH_ALL}). */
    @Override
    public String toString() {
        return normalized;
    }
}
