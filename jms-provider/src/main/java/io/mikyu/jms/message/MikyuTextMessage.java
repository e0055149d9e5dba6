package io.mikyu.jms.message;

import jakarta.jms.JMSException;
import jakarta.jms.TextMessage;

/** mikyu's {@link TextMessage}. A {@code null} text is "no body". */
public class MikyuTextMessage extends MikyuMessage implements TextMessage {

    private String text;

    public MikyuTextMessage() {
    }

    public MikyuTextMessage(String text) {
        this.text = text;
    }

    @Override
    public BodyType bodyType() {
        return BodyType.TEXT;
    }

    @Override
    public void setText(String string) throws JMSException {
        checkBodyWritable();
        this.text = string;
    }

    @Override
    public String getText() {
        return text;
    }

    @Override
    public void clearBody() throws JMSException {
        super.clearBody();
        text = null;
    }

    @Override
    protected boolean hasNoBody() {
        return text == null;
    }

    @Override
    protected boolean canAssignBodyTo(Class<?> c) {
        return c.isAssignableFrom(String.class);
    }

    @Override
    protected Object bodyValue() {
        return text;
    }
}
