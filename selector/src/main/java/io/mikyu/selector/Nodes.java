package io.mikyu.selector;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The selector AST: small immutable node classes. Value nodes write into a caller-provided {@link Val}; condition
 * nodes return {@link #TRUE}, {@link #FALSE} or {@link #UNKNOWN} (SQL three-valued logic). Scratch values come from the
 * {@link EvalContext} stack, so evaluation neither allocates (except to decode a header string a LIKE or a large IN
 * needs) nor throws.
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

    // ---------------------------------------------------------------- leaves

    static final class Ident extends Expr {
        static final int PLAIN = 0;
        static final int DELIVERY_MODE = 1;
        static final int DELIVERY_COUNT = 2;
        static final int REDELIVERED = 3;

        final String name;
        final int special;

        Ident(int pos, String name) {
            super(pos, 1);
            this.name = name;
            switch (name) {
                case "JMSDeliveryMode" -> special = DELIVERY_MODE;
                case "JMSXDeliveryCount" -> special = DELIVERY_COUNT;
                case "JMSRedelivered" -> special = REDELIVERED;
                default -> special = PLAIN;
            }
        }

        @Override
        Type type() {
            return Type.ANY;
        }

        @Override
        void eval(EvalContext c, Val out) {
            c.load(this, out);
        }

        @Override
        void render(StringBuilder sb) {
            sb.append(name);
        }

        @Override
        boolean atomic() {
            return true;
        }
    }

    /** An identifier used as a condition: true or false if it holds a boolean, otherwise unknown. */
    static final class IdentCond extends Cond {
        final Ident ident;

        IdentCond(Ident ident) {
            super(ident.pos, 2);
            this.ident = ident;
        }

        @Override
        int test(EvalContext c) {
            Val v = c.push();
            c.load(ident, v);
            int r = v.kind == Val.BOOL ? (v.b ? TRUE : FALSE) : UNKNOWN;
            c.pop(1);
            return r;
        }

        @Override
        void render(StringBuilder sb) {
            ident.render(sb);
        }

        @Override
        boolean atomic() {
            return true;
        }
    }

    static final class BoolLit extends Cond {
        final boolean value;

        BoolLit(int pos, boolean value) {
            super(pos, 1);
            this.value = value;
        }

        @Override
        int test(EvalContext c) {
            return value ? TRUE : FALSE;
        }

        @Override
        void render(StringBuilder sb) {
            sb.append(value ? "TRUE" : "FALSE");
        }

        @Override
        boolean atomic() {
            return true;
        }
    }

    /** A numeric or string literal; its {@link #value} is never written after construction. */
    static final class Lit extends Expr {
        final Val value;

        private Lit(int pos, Val value) {
            super(pos, 1);
            this.value = value;
        }

        static Lit ofInt(int pos, int v) {
            Val x = new Val();
            x.setInt(v);
            return new Lit(pos, x);
        }

        static Lit ofLong(int pos, long v) {
            Val x = new Val();
            x.setLong(v);
            return new Lit(pos, x);
        }

        static Lit ofFloat(int pos, float v) {
            Val x = new Val();
            x.setFloat(v);
            return new Lit(pos, x);
        }

        static Lit ofDouble(int pos, double v) {
            Val x = new Val();
            x.setDouble(v);
            return new Lit(pos, x);
        }

        static Lit ofString(int pos, String v) {
            Val x = new Val();
            x.setString(v);
            byte[] utf8 = exactUtf8(v);
            if (utf8 != null) {
                x.raw = utf8;
                x.rawOff = 0;
            }
            return new Lit(pos, x);
        }

        @Override
        Type type() {
            return value.kind == Val.STRING ? Type.STR : Type.NUM;
        }

        @Override
        void eval(EvalContext c, Val out) {
            out.copyFrom(value);
        }

        @Override
        void render(StringBuilder sb) {
            switch (value.kind) {
                case Val.INT -> sb.append(value.l);
                case Val.LONG -> sb.append(value.l).append('L');
                case Val.FLOAT -> sb.append(Float.toString((float) value.d)).append('F');
                case Val.DOUBLE -> sb.append(Double.toString(value.d));
                default -> quote(value.s, sb);
            }
        }

        @Override
        boolean atomic() {
            return true;
        }
    }

    /** UTF-8 bytes of {@code s} if they decode back to {@code s} (no unpaired surrogates), else {@code null}. */
    static byte[] exactUtf8(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        return new String(b, StandardCharsets.UTF_8).equals(s) ? b : null;
    }

    static void quote(String s, StringBuilder sb) {
        sb.append('\'');
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (ch == '\'') {
                sb.append('\'');
            }
            sb.append(ch);
        }
        sb.append('\'');
    }

    // ---------------------------------------------------------------- logic

    static final class Not extends Cond {
        final Cond operand;

        Not(int pos, Cond operand) {
            super(pos, depthOf(operand));
            this.operand = operand;
        }

        @Override
        int test(EvalContext c) {
            return not3(operand.test(c));
        }

        @Override
        void render(StringBuilder sb) {
            sb.append("NOT ");
            operand(operand, sb);
        }
    }

    /** AND (or OR) over two or more operands; nested ANDs (ORs) are flattened into one node. */
    static final class Junction extends Cond {
        final boolean and;
        final Cond[] operands;

        private Junction(boolean and, Cond[] operands) {
            super(operands[0].pos, depthOf(operands));
            this.and = and;
            this.operands = operands;
        }

        /** Joins the operands, splicing in those that are themselves the same junction (parenthesized). */
        static Junction of(boolean and, List<Cond> operands) {
            List<Cond> all = new ArrayList<>(operands.size());
            for (Cond op : operands) {
                if (op instanceof Junction j && j.and == and) {
                    all.addAll(Arrays.asList(j.operands));
                } else {
                    all.add(op);
                }
            }
            return new Junction(and, all.toArray(new Cond[0]));
        }

        @Override
        int test(EvalContext c) {
            // AND: false wins, else unknown wins over true. OR: true wins, else unknown wins over false.
            int decisive = and ? FALSE : TRUE;
            int result = and ? TRUE : FALSE;
            for (Cond op : operands) {
                int r = op.test(c);
                if (r == decisive) {
                    return decisive;
                }
                if (r == UNKNOWN) {
                    result = UNKNOWN;
                }
            }
            return result;
        }

        @Override
        void render(StringBuilder sb) {
            for (int i = 0; i < operands.length; i++) {
                if (i > 0) {
                    sb.append(and ? " AND " : " OR ");
                }
                operand(operands[i], sb);
            }
        }
    }

    // ---------------------------------------------------------------- comparisons

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

    // ---------------------------------------------------------------- arithmetic

    /**
     * Binary arithmetic with Java binary numeric promotion. NULL or a non-number on either side, or an integer
     * division by zero, gives NULL; floating-point division by zero gives an infinity or NaN as in Java.
     */
    static final class Arith extends Expr {
        final char op;
        final Expr left;
        final Expr right;

        Arith(char op, Expr left, Expr right) {
            super(left.pos, depthOf(left, right));
            this.op = op;
            this.left = left;
            this.right = right;
        }

        @Override
        Type type() {
            return Type.NUM;
        }

        @Override
        void eval(EvalContext c, Val out) {
            left.eval(c, out);
            Val b = c.push();
            right.eval(c, b);
            apply(op, out, b, out);
            c.pop(1);
        }

        static void apply(char op, Val a, Val b, Val out) {
            if (!a.isNumeric() || !b.isNumeric()) {
                out.setNull();
                return;
            }
            int k = Math.max(a.kind, b.kind);
            switch (k) {
                case Val.INT -> {
                    int x = (int) a.l;
                    int y = (int) b.l;
                    switch (op) {
                        case '+' -> out.setInt(x + y);
                        case '-' -> out.setInt(x - y);
                        case '*' -> out.setInt(x * y);
                        default -> {
                            if (y == 0) {
                                out.setNull();
                            } else {
                                out.setInt(x / y);
                            }
                        }
                    }
                }
                case Val.LONG -> {
                    long x = a.l;
                    long y = b.l;
                    switch (op) {
                        case '+' -> out.setLong(x + y);
                        case '-' -> out.setLong(x - y);
                        case '*' -> out.setLong(x * y);
                        default -> {
                            if (y == 0) {
                                out.setNull();
                            } else {
                                out.setLong(x / y);
                            }
                        }
                    }
                }
                case Val.FLOAT -> {
                    float x = a.asFloat();
                    float y = b.asFloat();
                    switch (op) {
                        case '+' -> out.setFloat(x + y);
                        case '-' -> out.setFloat(x - y);
                        case '*' -> out.setFloat(x * y);
                        default -> out.setFloat(x / y);
                    }
                }
                default -> {
                    double x = a.asDouble();
                    double y = b.asDouble();
                    switch (op) {
                        case '+' -> out.setDouble(x + y);
                        case '-' -> out.setDouble(x - y);
                        case '*' -> out.setDouble(x * y);
                        default -> out.setDouble(x / y);
                    }
                }
            }
        }

        @Override
        void render(StringBuilder sb) {
            operand(left, sb);
            sb.append(' ').append(op).append(' ');
            operand(right, sb);
        }
    }

    /** Unary minus or plus; NULL or a non-number gives NULL. */
    static final class Unary extends Expr {
        final boolean minus;
        final Expr operand;

        Unary(int pos, boolean minus, Expr operand) {
            super(pos, depthOf(operand));
            this.minus = minus;
            this.operand = operand;
        }

        @Override
        Type type() {
            return Type.NUM;
        }

        @Override
        void eval(EvalContext c, Val out) {
            operand.eval(c, out);
            if (!out.isNumeric()) {
                out.setNull();
            } else if (minus) {
                switch (out.kind) {
                    case Val.INT -> out.setInt(-(int) out.l);
                    case Val.LONG -> out.setLong(-out.l);
                    case Val.FLOAT -> out.setFloat(-(float) out.d);
                    default -> out.setDouble(-out.d);
                }
            }
        }

        @Override
        void render(StringBuilder sb) {
            sb.append(minus ? '-' : '+');
            int at = sb.length();
            operand(operand, sb);
            char first = sb.charAt(at);
            if (first == '-' || first == '+') {
                sb.insert(at, ' ');
            }
        }
    }
}
