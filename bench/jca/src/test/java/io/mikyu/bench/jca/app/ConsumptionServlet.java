package io.mikyu.bench.jca.app;

import jakarta.ejb.EJB;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** {@code GET /consumed}: the bean's {@link Consumption#summary()}. */
@WebServlet("/consumed")
public class ConsumptionServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @EJB
    private Consumption consumption;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setContentType("text/plain");
        response.getWriter().print(consumption.summary());
    }
}
