package io.mikyu.selector;

import io.mikyu.engine.Headers;
import io.mikyu.engine.TaskView;
import java.util.function.Function;

/**
 * Per-evaluation state: where identifier values come from, and a stack of scratch {@link Val} slots so that
 * evaluation does not allocate. One is cached per thread; a nested evaluation on the same thread gets a fresh one.
 */
final class EvalContext {

    private static final ThreadLocal<EvalContext> CACHE = ThreadLocal.withInitial(EvalContext::new);

    private static final String PERSISTENT = "PERSISTENT";
    private static final String NON_PERSISTENT = "NON_PERSISTENT";

    private TaskView task;
    private Headers headers;
    private boolean headersLoaded;
    private Function<String, Object> properties;
    private boolean busy;

    private Val[] stack = new Val[8];
    private int sp;

    private EvalContext() {
        for (int i = 0; i < stack.length; i++) {
            stack[i] = new Val();
        }
    }

    static EvalContext acquire(TaskView task) {
        EvalContext c = acquire();
        c.task = task; // headers are fetched on first use, inside the caller's error handling
        return c;
    }

    static EvalContext acquire(Function<String, Object> properties) {
        EvalContext c = acquire();
        c.properties = properties;
        return c;
    }

    private static EvalContext acquire() {
        EvalContext c = CACHE.get();
        if (c.busy) {
            c = new EvalContext();
        }
        c.busy = true;
        c.sp = 0;
        return c;
    }

    void release() {
        task = null;
        headers = null;
        headersLoaded = false;
        properties = null;
        for (int i = 0; i < sp; i++) {
            stack[i].setNull();
        }
        sp = 0;
        busy = false;
    }

    Val push() {
        if (sp == stack.length) {
            Val[] bigger = new Val[stack.length * 2];
            System.arraycopy(stack, 0, bigger, 0, stack.length);
            for (int i = stack.length; i < bigger.length; i++) {
                bigger[i] = new Val();
            }
            stack = bigger;
        }
        return stack[sp++];
    }

    void pop(int n) {
        sp -= n;
    }

    /** Loads the value of an identifier (header field or property) into {@code out}. */
    void load(Leaves.Ident id, Val out) {
        if (properties != null) {
            fromObject(properties.apply(id.name), out);
        } else {
            if (!headersLoaded) {
                headers = task.headers();
                headersLoaded = true;
            }
            byte[] v = headers == null ? null : headers.get(id.name);
            if (v == null) {
                derived(id, out);
                return;
            }
            TypedHeaderDecoder.decode(v, out);
        }
        if (id.special == Leaves.Ident.DELIVERY_MODE && out.kind == Val.INT) {
            // Stored (and set by applications) as the int constants of jakarta.jms.DeliveryMode.
            if (out.l == 2) {
                out.setString(PERSISTENT);
            } else if (out.l == 1) {
                out.setString(NON_PERSISTENT);
            }
        }
    }

    /** Values the engine knows without a stored header: the delivery count and redelivered flag. */
    private void derived(Leaves.Ident id, Val out) {
        switch (id.special) {
            case Leaves.Ident.DELIVERY_COUNT:
                // The count the message would carry if delivered now.
                out.setInt(task.attempts() + 1);
                break;
            case Leaves.Ident.REDELIVERED:
                out.setBool(task.attempts() > 0);
                break;
            default:
                out.setNull();
                break;
        }
    }

    private static void fromObject(Object o, Val out) {
        if (o == null) {
            out.setNull();
        } else if (o instanceof String str) {
            out.setString(str);
        } else if (o instanceof Integer i) {
            out.setInt(i);
        } else if (o instanceof Long x) {
            out.setLong(x);
        } else if (o instanceof Boolean bool) {
            out.setBool(bool);
        } else if (o instanceof Double x) {
            out.setDouble(x);
        } else if (o instanceof Float x) {
            out.setFloat(x);
        } else if (o instanceof Short x) {
            out.setInt(x);
        } else if (o instanceof Byte x) {
            out.setInt(x);
        } else {
            out.setOther();
        }
    }
}
