package io.mikyu.engine;

/**
 * A predicate over a task's headers and metadata, for filtered dequeue and browse.
 *
 * <p>The queue keeps, per filter in use, the ready tasks that match it, so a filtered dequeue does not scan the
 * queue: filters are told apart by {@code equals}/{@code hashCode}. Give filters that mean the same thing equal
 * identities (the JMS layer's compiled selectors compare by their text); a new lambda per call is a new filter.
 * Evaluation must be fast and side-effect free; it runs under the queue's lock.
 */
@FunctionalInterface
public interface TaskFilter {

    boolean matches(TaskView task);

    /**
     * This filter as text, or {@code null} if it has none. Only a filter with an expression can be used against a
     * broker ({@link Mikyu#dial(String)}), which compiles the text and evaluates it next to the data.
     */
    default FilterExpression expression() {
        return null;
    }
}
