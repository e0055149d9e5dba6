package io.mikyu.selector;

import io.mikyu.selector.Nodes.Cond;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static io.mikyu.selector.Nodes.FALSE;
import static io.mikyu.selector.Nodes.TRUE;
import static io.mikyu.selector.Nodes.UNKNOWN;
import static io.mikyu.selector.Nodes.not3;
/** NOT, AND and OR, in SQL three-valued logic. */
final class Logic {

    private Logic() {
    }

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
}
