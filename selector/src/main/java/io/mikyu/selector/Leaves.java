package io.mikyu.selector;

import io.mikyu.selector.Nodes.Cond;
import io.mikyu.selector.Nodes.Expr;
import io.mikyu.selector.Nodes.Type;

import java.nio.charset.StandardCharsets;

import static io.mikyu.selector.Nodes.FALSE;
import static io.mikyu.selector.Nodes.TRUE;
import static io.mikyu.selector.Nodes.UNKNOWN;
/**
 * The tree's leaves: identifiers (a header or property, read through the {@link EvalContext}), numeric and string
 * literals, and the boolean constants.
 */
final class Leaves {

    private Leaves() {
    }

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
}
