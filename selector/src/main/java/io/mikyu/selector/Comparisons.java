package io.mikyu.selector;

import io.mikyu.selector.Leaves.Lit;
import io.mikyu.selector.Nodes.Cond;
import io.mikyu.selector.Nodes.Expr;

import static io.mikyu.selector.Nodes.FALSE;
import static io.mikyu.selector.Nodes.TRUE;
import static io.mikyu.selector.Nodes.UNKNOWN;
import static io.mikyu.selector.Nodes.and3;
import static io.mikyu.selector.Nodes.or3;
/** The comparisons ({@code =}, {@code <>}, {@code <}, {@code <=}, {@code >}, {@code >=}) and BETWEEN. */
final class Comparisons {

    private Comparisons() {
    }

    static final int EQ = 0;
    static final int NE = 1;
    static final int LT = 2;
    static final int LE = 3;
    static final int GT = 4;
    static final int GE = 5;
    static final String[] OP_TEXT = {"=", "<>", "<", "<=", ">", ">="};

    /**
     * Compares two values. NULL on either side gives unknown. Numbers compare after Java binary numeric promotion
     * (so NaN is unequal to everything); strings and booleans support only {@code =} and {@code <>}. Anything else
     * — values of unlike types, ordering of strings or booleans, opaque values — is false, as the specification
     * says of comparing non-like types.
     */
    static int compare(int op, Val a, Val b) {
        if (a.kind == Val.NULL || b.kind == Val.NULL) {
            return UNKNOWN;
        }
        boolean r;
        if (a.isNumeric() && b.isNumeric()) {
            int k = Math.max(a.kind, b.kind);
            if (k <= Val.LONG) {
                long x = a.l;
                long y = b.l;
                r = switch (op) {
                    case EQ -> x == y;
                    case NE -> x != y;
                    case LT -> x < y;
                    case LE -> x <= y;
                    case GT -> x > y;
                    default -> x >= y;
                };
            } else if (k == Val.FLOAT) {
                float x = a.asFloat();
                float y = b.asFloat();
                r = switch (op) {
                    case EQ -> x == y;
                    case NE -> x != y;
                    case LT -> x < y;
                    case LE -> x <= y;
                    case GT -> x > y;
                    default -> x >= y;
                };
            } else {
                double x = a.asDouble();
                double y = b.asDouble();
                r = switch (op) {
                    case EQ -> x == y;
                    case NE -> x != y;
                    case LT -> x < y;
                    case LE -> x <= y;
                    case GT -> x > y;
                    default -> x >= y;
                };
            }
        } else if (op != EQ && op != NE) {
            return FALSE;
        } else if (a.kind == Val.STRING && b.kind == Val.STRING) {
            r = Val.stringsEqual(a, b) == (op == EQ);
        } else if (a.kind == Val.BOOL && b.kind == Val.BOOL) {
            r = (a.b == b.b) == (op == EQ);
        } else {
            return FALSE;
        }
        return r ? TRUE : FALSE;
    }

    static final class Compare extends Cond {
        final int op;
        final Expr left;
        final Expr right;
        /** The right operand's value when it is a literal, read (never written) directly. */
        private final Val constant;

        Compare(int op, Expr left, Expr right) {
            super(left.pos, depthOf(left, right));
            this.op = op;
            this.left = left;
            this.right = right;
            this.constant = right instanceof Lit lit ? lit.value : null;
        }

        @Override
        int test(EvalContext c) {
            Val a = c.push();
            left.eval(c, a);
            int r;
            if (constant != null) {
                r = compare(op, a, constant);
                c.pop(1);
            } else {
                Val b = c.push();
                right.eval(c, b);
                r = compare(op, a, b);
                c.pop(2);
            }
            return r;
        }

        @Override
        void render(StringBuilder sb) {
            operand(left, sb);
            sb.append(' ').append(OP_TEXT[op]).append(' ');
            operand(right, sb);
        }
    }

    /** {@code e BETWEEN lo AND hi} is {@code e >= lo AND e <= hi}; NOT BETWEEN is {@code e < lo OR e > hi}. */
    static final class Between extends Cond {
        final Expr value;
        final Expr low;
        final Expr high;
        final boolean not;

        Between(Expr value, Expr low, Expr high, boolean not) {
            super(value.pos, depthOf(value, low, high));
            this.value = value;
            this.low = low;
            this.high = high;
            this.not = not;
        }

        @Override
        int test(EvalContext c) {
            Val v = c.push();
            Val lo = c.push();
            Val hi = c.push();
            value.eval(c, v);
            low.eval(c, lo);
            high.eval(c, hi);
            int r = not
                    ? or3(compare(LT, v, lo), compare(GT, v, hi))
                    : and3(compare(GE, v, lo), compare(LE, v, hi));
            c.pop(3);
            return r;
        }

        @Override
        void render(StringBuilder sb) {
            operand(value, sb);
            sb.append(not ? " NOT BETWEEN " : " BETWEEN ");
            operand(low, sb);
            sb.append(" AND ");
            operand(high, sb);
        }
    }
}
