package io.mikyu.selector;

import io.mikyu.selector.Nodes.Expr;
import io.mikyu.selector.Nodes.Type;
/** Arithmetic: the binary operators {@code + - * /} and unary minus and plus. */
final class Arithmetic {

    private Arithmetic() {
    }

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
