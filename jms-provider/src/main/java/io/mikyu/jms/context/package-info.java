/**
 * The simplified API of Jakarta Messaging 3.1 ({@link jakarta.jms.JMSContext}, {@link jakarta.jms.JMSProducer},
 * {@link jakarta.jms.JMSConsumer}), written against the standard classic interfaces only, so it runs over any correct
 * classic implementation. Beyond them it uses one optional capability of a classic consumer,
 * {@link io.mikyu.jms.context.ConditionalReceiver}, for {@code receiveBody} of the wrong type. Not API: applications
 * get these objects from {@code ConnectionFactory.createContext}.
 */
package io.mikyu.jms.context;
