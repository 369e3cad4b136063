from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.views import LoginView
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments import throttle


def client_address(request):
    return request.META.get("REMOTE_ADDR", "") or "unknown"


class ThrottledLoginView(LoginView):
    template_name = "registration/login.html"
    redirect_authenticated_user = True

    def post(self, request, *args, **kwargs):
        username = request.POST.get("username", "")
        if throttle.is_locked(username=username, address=client_address(request)):
            locked = _("Too many failed attempts. Wait 15 minutes before trying again.")
            context = self.get_context_data(form=self.form_class(request), locked_message=locked)
            return self.render_to_response(context, status=429)
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form):
        throttle.record_failure(username=self.request.POST.get("username", ""), address=client_address(self.request))
        return super().form_invalid(form)

    def form_valid(self, form):
        throttle.clear(username=form.get_user().get_username())
        return super().form_valid(form)


@require_POST
def logout_view(request):
    logout(request)
    messages.info(request, _("You are logged out."))
    return redirect("public:home")
