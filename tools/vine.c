/* Placeholder: replaced by the vine CLI (list, verify). */
int main(void) { return 0; }
