package io.mikyu.selector;

import io.mikyu.selector.Leaves.Ident;
import io.mikyu.selector.Nodes.Cond;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static io.mikyu.selector.Leaves.exactUtf8;
import static io.mikyu.selector.Leaves.quote;
import static io.mikyu.selector.Nodes.FALSE;
import static io.mikyu.selector.Nodes.TRUE;
import static io.mikyu.selector.Nodes.UNKNOWN;
/** The tests of one identifier: {@code [NOT] IN}, {@code [NOT] LIKE} and {@code IS [NOT] NULL}. */
final class IdentifierTests {

    private IdentifierTests() {
    }

    /** {@code id [NOT] IN ('a', ...)}: unknown if the identifier is NULL or does not hold a string. */
    static final class In extends Cond {
        private static final int LINEAR_MAX = 8;

        final Ident ident;
        final String[] values;
        final boolean not;
        private final byte[][] utf8;
        private final Set<String> set;

        In(Ident ident, List<String> list, boolean not) {
            super(ident.pos, 2);
            this.ident = ident;
            this.values = list.stream().distinct().sorted().toArray(String[]::new);
            this.not = not;
            this.utf8 = new byte[values.length][];
            for (int i = 0; i < values.length; i++) {
                utf8[i] = exactUtf8(values[i]);
            }
            this.set = values.length > LINEAR_MAX ? new HashSet<>(Arrays.asList(values)) : null;
        }

        @Override
        int test(EvalContext c) {
            Val v = c.push();
            c.load(ident, v);
            int r;
            if (v.kind != Val.STRING) {
                r = UNKNOWN;
            } else {
                boolean found = false;
                if (set != null) {
                    found = set.contains(v.str());
                } else {
                    for (int i = 0; i < values.length && !found; i++) {
                        found = v.equalsLiteral(values[i], utf8[i]);
                    }
                }
                r = found != not ? TRUE : FALSE;
            }
            c.pop(1);
            return r;
        }

        @Override
        void render(StringBuilder sb) {
            ident.render(sb);
            sb.append(not ? " NOT IN (" : " IN (");
            for (int i = 0; i < values.length; i++) {
                if (i > 0) {
                    sb.append(", ");
                }
                quote(values[i], sb);
            }
            sb.append(')');
        }
    }

    /** {@code id [NOT] LIKE 'pattern' [ESCAPE 'c']}: unknown if the identifier is NULL or not a string. */
    static final class Like extends Cond {
        final Ident ident;
        final String pattern;
        final String escape;
        final boolean not;
        private final LikePattern matcher;

        Like(Ident ident, String pattern, String escape, LikePattern matcher, boolean not) {
            super(ident.pos, 2);
            this.ident = ident;
            this.pattern = pattern;
            this.escape = escape;
            this.matcher = matcher;
            this.not = not;
        }

        @Override
        int test(EvalContext c) {
            Val v = c.push();
            c.load(ident, v);
            int r = v.kind != Val.STRING ? UNKNOWN : (matcher.matches(v.str()) != not ? TRUE : FALSE);
            c.pop(1);
            return r;
        }

        @Override
        void render(StringBuilder sb) {
            ident.render(sb);
            sb.append(not ? " NOT LIKE " : " LIKE ");
            quote(pattern, sb);
            if (escape != null) {
                sb.append(" ESCAPE ");
                quote(escape, sb);
            }
        }
    }

    static final class IsNull extends Cond {
        final Ident ident;
        final boolean not;

        IsNull(Ident ident, boolean not) {
            super(ident.pos, 2);
            this.ident = ident;
            this.not = not;
        }

        @Override
        int test(EvalContext c) {
            Val v = c.push();
            c.load(ident, v);
            boolean isNull = v.kind == Val.NULL;
            c.pop(1);
            return isNull != not ? TRUE : FALSE;
        }

        @Override
        void render(StringBuilder sb) {
            ident.render(sb);
            sb.append(not ? " IS NOT NULL" : " IS NULL");
        }
    }
}
