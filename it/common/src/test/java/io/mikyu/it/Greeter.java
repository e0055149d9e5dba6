package io.mikyu.it;

import jakarta.ejb.Stateless;

/** A stateless bean, so that the harness's check goes through the EJB container too. */
@Stateless
public class Greeter {

    public String greet(String name) {
        return "hello " + name;
    }
}
