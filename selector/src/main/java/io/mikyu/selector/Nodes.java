package io.mikyu.selector;

/**
 * The selector AST: small immutable node classes. Value nodes write into a caller-provided {@link Val}; condition
 * nodes return {@link #TRUE}, {@link #FALSE} or {@link #UNKNOWN} (SQL three-valued logic). Scratch values come from the
 * {@link EvalContext} stack, so evaluation neither allocates (except to decode a header string a LIKE or a large IN
 * needs) nor throws. The nodes are grouped by kind: {@link Leaves}, {@link Logic}, {@link Comparisons},
 * {@link IdentifierTests} and {@link Arithmetic}; this class holds their base classes and the three-valued logic.
 */
final class Nodes {

    static final int TRUE = 1;
    static final int FALSE = 0;
    static final int UNKNOWN = -1;

    /** Static type, as far as the parser can tell; identifiers can hold anything. */
    enum Type { BOOL, NUM, STR, ANY }

    private Nodes() {
    }

    static int and3(int a, int b) {
        if (a == FALSE || b == FALSE) {
            return FALSE;
        }
        return a == TRUE && b == TRUE ? TRUE : UNKNOWN;
    }

    static int or3(int a, int b) {
        if (a == TRUE || b == TRUE) {
            return TRUE;
        }
        return a == FALSE && b == FALSE ? FALSE : UNKNOWN;
    }

    static int not3(int a) {
        return a == UNKNOWN ? UNKNOWN : 1 - a;
    }

    abstract static class Expr {
        /** Offset of the node's first token in the selector text, for error messages. */
        final int pos;
        /** Height of the subtree, bounded by the parser so evaluation cannot overflow the stack. */
        final int depth;

        Expr(int pos, int depth) {
            this.pos = pos;
            this.depth = depth;
        }

        abstract Type type();

        abstract void eval(EvalContext c, Val out);

        /** Appends the normalized text of this node. */
        abstract void render(StringBuilder sb);

        /** Whether the node renders as a single token, needing no parentheses as an operand. */
        boolean atomic() {
            return false;
        }

        static void operand(Expr e, StringBuilder sb) {
            if (e.atomic()) {
                e.render(sb);
            } else {
                sb.append('(');
                e.render(sb);
                sb.append(')');
            }
        }

        static int depthOf(Expr... children) {
            int max = 0;
            for (Expr e : children) {
                max = Math.max(max, e.depth);
            }
            return max + 1;
        }
    }

    /** A boolean-valued node. */
    abstract static class Cond extends Expr {
        Cond(int pos, int depth) {
            super(pos, depth);
        }

        abstract int test(EvalContext c);

        @Override
        final Type type() {
            return Type.BOOL;
        }

        @Override
        final void eval(EvalContext c, Val out) {
            int r = test(c);
            if (r == UNKNOWN) {
                out.setNull();
            } else {
                out.setBool(r == TRUE);
            }
        }
    }
}
