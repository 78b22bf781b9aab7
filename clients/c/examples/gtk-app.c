/* A GTK 4 window whose texts come from lprojd: the reference's examples
 * (the pages in docs/) are taken from this file, which the tests build and run.
 *
 *   cc gtk-app.c $(pkg-config --cflags --libs gtk4 lprojd-2) -o gtk-app
 *   ./gtk-app            (lprojd's socket: $LPROJD_SOCKET, else the user's, else the system's)
 *
 * It creates a localizer without blocking, shows a title and a greeting
 * from the mirror, a plural count formatted by lprojd, the locale bound to
 * a label, and a language menu; choosing a language saves it in lprojd,
 * and every window of the app (and any other process of it) follows.
 *
 * For the tests: LPROJD_EXAMPLE_CHOOSE=LOCALE chooses that language in the
 * menu once the window shows, as a user would, and the app prints each
 * render and quits once the window shows that language. */
#include <gtk/gtk.h>
#include <lprojd/lprojd.h>

typedef struct {
  GtkApplication *application;
  LprojdLocalizer *localizer;
  GtkWidget *window, *title, *greeting, *files, *locale, *menu;
  GPtrArray *menu_locales; /* the locale of each menu entry */
  gboolean updating_menu;  /* the menu is being filled, not chosen from */
  GCancellable *cancellable;
  const char *choose;      /* LPROJD_EXAMPLE_CHOOSE */
} App;

static void render(App *app);

/* ---- look up: strings from the mirror, in process ---- */

static void show_strings(App *app) {
  LprojdLocalizer *localizer = app->localizer;
  gtk_window_set_title(GTK_WINDOW(app->window), lprojd_localizer_lookup(localizer, "welcome.title", NULL, "Demo"));
  gtk_label_set_text(GTK_LABEL(app->title), lprojd_localizer_lookup(localizer, "welcome.title", NULL, "Welcome"));

  g_autoptr(GHashTable) names = g_hash_table_new(g_str_hash, g_str_equal);
  g_hash_table_insert(names, "name", (char *)g_get_real_name());
  g_autofree char *greeting = lprojd_localizer_lookup_with_placeholders(localizer, "greeting", NULL, NULL, names);
  gtk_label_set_text(GTK_LABEL(app->greeting), greeting);
}

/* ---- plurals: formatted by lprojd, asynchronously ---- */

static void on_files_formatted(GObject *source, GAsyncResult *result, gpointer data) {
  App *app = data;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = lprojd_localizer_format_finish(LPROJD_LOCALIZER(source), result, &error);
  if (text == NULL) {
    if (g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED)) return; /* the window is gone */
    text = g_strdup_printf("(%s)", error->message); /* LPROJD_ERROR_UNAVAILABLE without lprojd */
  }
  gtk_label_set_text(GTK_LABEL(app->files), text);
  if (g_getenv("LPROJD_EXAMPLE_CHOOSE") != NULL) {
    const char *locale = lprojd_localizer_get_locale(app->localizer);
    g_print("render %s: %s | %s | %s\n", locale, gtk_label_get_text(GTK_LABEL(app->title)), text,
            gtk_label_get_text(GTK_LABEL(app->locale)));
    if (g_strcmp0(locale, app->choose) == 0) g_application_quit(G_APPLICATION(app->application));
  }
}

static void show_files(App *app, gint64 count) {
  lprojd_localizer_format_async(app->localizer, "files.selected", NULL, g_variant_new("(x)", count), NULL,
                                app->cancellable, on_files_formatted, app);
}

/* ---- a language menu ---- */

static void fill_menu(App *app) {
  g_autoptr(GPtrArray) names = lprojd_localizer_supported_locales(app->localizer);
  g_autoptr(GtkStringList) entries = gtk_string_list_new(NULL);
  g_ptr_array_set_size(app->menu_locales, 0);
  guint selected = GTK_INVALID_LIST_POSITION;
  for (guint i = 0; i < names->len; i++) {
    LprojdLocaleName *name = g_ptr_array_index(names, i);
    gtk_string_list_append(entries, lprojd_locale_name_get_native_name(name)); /* Deutsch, français, 日本語 */
    g_ptr_array_add(app->menu_locales, g_strdup(lprojd_locale_name_get_locale(name)));
    if (g_strcmp0(lprojd_locale_name_get_locale(name), lprojd_localizer_get_locale(app->localizer)) == 0) selected = i;
  }
  app->updating_menu = TRUE;
  gtk_drop_down_set_model(GTK_DROP_DOWN(app->menu), G_LIST_MODEL(entries));
  gtk_drop_down_set_selected(GTK_DROP_DOWN(app->menu), selected);
  app->updating_menu = FALSE;
}

static void on_selected(GObject *source, GAsyncResult *result, gpointer data) {
  (void)data;
  g_autoptr(GError) error = NULL;
  if (!lprojd_localizer_select_finish(LPROJD_LOCALIZER(source), result, &error))
    g_warning("the language was not saved: %s", error->message);
}

static void on_language_chosen(GtkDropDown *menu, GParamSpec *pspec, gpointer data) {
  (void)pspec;
  App *app = data;
  guint chosen = gtk_drop_down_get_selected(menu);
  if (app->updating_menu || chosen >= app->menu_locales->len) return;
  /* Saved in lprojd; the `changed` signal shows the new strings. */
  lprojd_localizer_select_async(app->localizer, g_ptr_array_index(app->menu_locales, chosen), app->cancellable,
                                on_selected, app);
}

/* ---- follow changes ---- */

static void on_changed(LprojdLocalizer *localizer, LprojdChange what, gpointer data) {
  (void)localizer, (void)what;
  render(data);
}

static void render(App *app) {
  show_strings(app);
  show_files(app, 3);
  fill_menu(app);
}

/* For the tests: the user chooses a language in the menu. */
static gboolean choose_language(gpointer data) {
  App *app = data;
  for (guint i = 0; i < app->menu_locales->len; i++)
    if (g_strcmp0(g_ptr_array_index(app->menu_locales, i), app->choose) == 0)
      gtk_drop_down_set_selected(GTK_DROP_DOWN(app->menu), i);
  return G_SOURCE_REMOVE;
}

static void build_window(App *app) {
  app->window = gtk_application_window_new(app->application);
  GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12);
  gtk_widget_set_margin_top(box, 18);
  gtk_widget_set_margin_bottom(box, 18);
  gtk_widget_set_margin_start(box, 18);
  gtk_widget_set_margin_end(box, 18);
  app->menu = gtk_drop_down_new(NULL, NULL);
  app->title = gtk_label_new(NULL);
  app->greeting = gtk_label_new(NULL);
  app->files = gtk_label_new(NULL);
  app->locale = gtk_label_new(NULL);
  gtk_widget_add_css_class(app->title, "title-1");
  gtk_widget_add_css_class(app->locale, "dim-label");
  GtkWidget *widgets[] = {app->menu, app->title, app->greeting, app->files, app->locale};
  for (gsize i = 0; i < G_N_ELEMENTS(widgets); i++) gtk_box_append(GTK_BOX(box), widgets[i]);
  gtk_window_set_child(GTK_WINDOW(app->window), box);
  g_signal_connect(app->menu, "notify::selected", G_CALLBACK(on_language_chosen), app);
}

/* ---- create: without blocking the main loop ---- */

static void on_localizer_ready(GObject *source, GAsyncResult *result, gpointer data) {
  (void)source;
  App *app = data;
  g_autoptr(GError) error = NULL;
  app->localizer = lprojd_localizer_new_finish(result, &error);
  if (app->localizer == NULL) {
    /* LPROJD_ERROR_BUNDLE_NOT_FOUND, say. Without lprojd there is no error:
     * the localizer answers from its cache and connects when it can. */
    g_printerr("gtk-app: %s\n", error->message);
    g_application_release(G_APPLICATION(app->application));
    return;
  }
  build_window(app);
  g_object_bind_property(app->localizer, "locale", app->locale, "label", G_BINDING_SYNC_CREATE);
  g_signal_connect(app->localizer, "changed", G_CALLBACK(on_changed), app);
  render(app);
  gtk_window_present(GTK_WINDOW(app->window));
  g_application_release(G_APPLICATION(app->application));
  if (app->choose != NULL) g_idle_add(choose_language, app);
}

static void on_activate(GtkApplication *application, gpointer data) {
  App *app = data;
  if (app->window != NULL || app->cancellable != NULL) return;
  app->cancellable = g_cancellable_new();
  /* Held until the localizer is ready: the app has no window yet. */
  g_application_hold(G_APPLICATION(application));
  lprojd_localizer_new_async("demo", "org.lprojd.GtkExample", NULL, app->cancellable, on_localizer_ready, app);
}

int main(int argc, char **argv) {
  App app = {.menu_locales = g_ptr_array_new_with_free_func(g_free), .choose = g_getenv("LPROJD_EXAMPLE_CHOOSE")};
  app.application = gtk_application_new("org.lprojd.GtkExample", G_APPLICATION_NON_UNIQUE);
  g_signal_connect(app.application, "activate", G_CALLBACK(on_activate), &app);
  int status = g_application_run(G_APPLICATION(app.application), argc, argv);
  if (app.cancellable != NULL) g_cancellable_cancel(app.cancellable);
  g_clear_object(&app.localizer);
  g_clear_object(&app.cancellable);
  g_object_unref(app.application);
  g_ptr_array_unref(app.menu_locales);
  return status;
}
